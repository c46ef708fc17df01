/*
 * integral-box: (2R+1) x (2R+1) box sum of an integer image through a
 * summed-area table (integral image), the two stages fused row by row.
 *
 * Definition (0 <= y < H, 0 <= x < W for the input; R = 2, D = 2R + 1):
 *   S[0][x] = 0,  S[y][0] = 0
 *   S[y+1][x+1] = in[y][x] + S[y][x+1] + S[y+1][x] - S[y][x]
 *     (so S[y][x] = sum of in[0..y-1][0..x-1])
 *   out[y][x] = S[y+D][x+D] - S[y][x+D] - S[y+D][x] + S[y][x]
 *             = sum_{dy, dx in 0..2R} in[y+dy][x+dx]     0 <= y < H-2R, 0 <= x < W-2R
 * Schedule: for y in 0 .. H-1: row y+1 of S; if y+1 >= D, row y+1-D of out
 * (which reads S rows y+1-D and y+1).
 *
 * Arrays: in[H][W] int (input), out[H-2R][W-2R] long long (output),
 *         S[H+1][W+1] long long (heap scratch, 5.1 MB).
 * A storage allocator should find: S folds to D+1 = 6 rows,
 * S[y][x] -> S'[y mod 6][x]: row y+1-D is read by out for the last time in
 * the same iteration that writes row y+1, and row y+1 is still needed by
 * the next row of S and by out D rows later.
 */
#include <stdio.h>
#include <stdlib.h>

#define H 800
#define W 800
#define R 2
#define D (2 * R + 1)

__attribute__((noinline)) void kernel_integral_box(int in[H][W], long long out[H - 2 * R][W - 2 * R])
{
  long long (*S)[W + 1] = malloc(sizeof(long long[H + 1][W + 1]));

  for (int x = 0; x <= W; x++)
    S[0][x] = 0;

  for (int y = 0; y < H; y++) {
    S[y + 1][0] = 0;
    for (int x = 0; x < W; x++)
      S[y + 1][x + 1] = in[y][x] + S[y][x + 1] + S[y + 1][x] - S[y][x];
    if (y + 1 >= D)
      for (int x = 0; x < W - 2 * R; x++)
        out[y + 1 - D][x] = S[y + 1][x + D] - S[y + 1 - D][x + D] - S[y + 1][x] + S[y + 1 - D][x];
  }

  free(S);
}

int main(void)
{
  int (*in)[W] = malloc(sizeof(int[H][W]));
  long long (*out)[W - 2 * R] = malloc(sizeof(long long[H - 2 * R][W - 2 * R]));

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      in[y][x] = (7 * y + 13 * x) % 256;

  kernel_integral_box(in, out);

  long long s = 0;
  for (int y = 0; y < H - 2 * R; y++)
    for (int x = 0; x < W - 2 * R; x++)
      s += out[y][x] * (long long)(1 + (y * (W - 2 * R) + x) % 131);
  printf("out %lld\n", s);

  free(in);
  free(out);
  return 0;
}
