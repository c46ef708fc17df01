/* The same recurrence on C99 variable-length array parameters: sizes are
   parameters of the SCoP. */
void jacobi_vla(int T, int N, double A[T][N]) {
  for (int t = 1; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      A[t][i] = (A[t-1][i-1] + A[t-1][i] + A[t-1][i+1]) / 3.0;
}
