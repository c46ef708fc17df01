/* A body with a boundary case: one statement whose schedule has two pieces. */
#define N 16
void borders(double in[N], double out[N]) {
  double B[N];
  for (int i = 0; i < N; i++) {
    if (i == 0 || i == N - 1) B[i] = in[i];
    else B[i] = (in[i - 1] + in[i + 1]) / 2.0;
  }
  for (int i = 0; i < N; i++) out[i] = B[i] * 2.0;
}
