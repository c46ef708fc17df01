/* Time-expanded 1-D Jacobi through a pointer to rows: Polly prints the reads of
   row t - 1 as floor divisions of the linearised address. */
#define T 10
#define N 20
void jacobi(double A[T][N]) {
  for (int t = 1; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[t][i] = (A[t-1][i-1] + A[t-1][i] + A[t-1][i+1]) / 3.0;
}
