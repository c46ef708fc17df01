/*
 * unsharp-mask: the 4-stage unsharp-mask image pipeline (one of the
 * PolyMage benchmarks used by Bhaskaracharya et al.), single channel,
 * stages fused row by row.
 *
 * Definition (0 <= y < H, 0 <= x < W; the input has a 2-pixel border;
 * binomial 5-tap weights g = (1, 4, 6, 4, 1) / 16):
 *   blurx[y][x]  = sum_{k=0..4} g[k] * in[y][x+k]                 0 <= y < H+4
 *   blury[y][x]  = sum_{k=0..4} g[k] * blurx[y+k][x]
 *   sharpen[y][x] = in[y+2][x+2] * (1 + WEIGHT) - blury[y][x] * WEIGHT
 *   out[y][x]    = |in[y+2][x+2] - blury[y][x]| < THRESHOLD ? in[y+2][x+2] : sharpen[y][x]
 * (the threshold test is written arithmetically: keep = (float)(d*d < T^2)
 * and out = keep * in + (1 - keep) * sharpen, which is exact for keep in
 * {0, 1}; a conditional expression "c ? v : s" was tried first but the
 * canonicalization sinks the load of sharpen into one arm, which makes a
 * data-dependent branch, a non-affine region statement and a PHI scalar.)
 * Schedule: for yy in 0 .. H+3: row yy of blurx; if yy >= 4, rows yy-4 of
 * blury, then of sharpen, then of out (one x loop per stage).
 *
 * Arrays: in[H+4][W+4] (input), out[H][W] (output),
 *         blurx[H+4][W] float (heap scratch, 1.6 MB),
 *         blury[H][W], sharpen[H][W] float (stack scratch, 1.6 MB each).
 * A storage allocator should find: blurx folds to 5 rows (yy mod 5);
 * blury and sharpen fold to 1 row each (a row is produced and consumed in the
 * same yy iteration).
 */
#include <stdio.h>
#include <stdlib.h>

#define H 640
#define W 640
#define WEIGHT 3.0f
#define THRESHOLD 0.001f

__attribute__((noinline)) void kernel_unsharp_mask(float in[H + 4][W + 4], float out[H][W])
{
  float (*blurx)[W] = malloc(sizeof(float[H + 4][W]));
  float blury[H][W];
  float sharpen[H][W];

  for (int yy = 0; yy < H + 4; yy++) {
    for (int x = 0; x < W; x++)
      blurx[yy][x] = (in[yy][x] + 4.0f * in[yy][x + 1] + 6.0f * in[yy][x + 2]
                      + 4.0f * in[yy][x + 3] + in[yy][x + 4]) * (1.0f / 16.0f);
    if (yy >= 4) {
      for (int x = 0; x < W; x++)
        blury[yy - 4][x] = (blurx[yy - 4][x] + 4.0f * blurx[yy - 3][x] + 6.0f * blurx[yy - 2][x]
                            + 4.0f * blurx[yy - 1][x] + blurx[yy][x]) * (1.0f / 16.0f);
      for (int x = 0; x < W; x++)
        sharpen[yy - 4][x] = in[yy - 2][x + 2] * (1.0f + WEIGHT) - blury[yy - 4][x] * WEIGHT;
      for (int x = 0; x < W; x++) {
        float v = in[yy - 2][x + 2];
        float b = blury[yy - 4][x];
        float s = sharpen[yy - 4][x];
        float d = v - b;
        float keep = (float)(d * d < THRESHOLD * THRESHOLD);  /* 1 or 0, no branch */
        out[yy - 4][x] = keep * v + (1.0f - keep) * s;
      }
    }
  }

  free(blurx);
}

int main(void)
{
  float (*in)[W + 4] = malloc(sizeof(float[H + 4][W + 4]));
  float (*out)[W] = malloc(sizeof(float[H][W]));

  /* smooth areas (where the threshold keeps the input) mixed with edges */
  for (int y = 0; y < H + 4; y++)
    for (int x = 0; x < W + 4; x++)
      in[y][x] = (float)(((y / 16) * 3 + (x / 16) * 5) % 7) / 7.0f
                 + (float)((7 * y + 13 * x) % 101) / 10100.0f;

  kernel_unsharp_mask(in, out);

  double s = 0.0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      s += (double)out[y][x] * (double)(1 + (y * W + x) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
