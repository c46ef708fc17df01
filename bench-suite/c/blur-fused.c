/*
 * blur-fused: two-stage 3x3 box blur, producer and consumer interleaved
 * row by row (the "blur-interleaved" schedule of Bhaskaracharya et al.,
 * Fig. 4(b)).
 *
 * Definition (0 <= y < H, 0 <= x < W; the input has a 1-pixel border):
 *   bx[y][x]  = (in[y][x] + in[y][x+1] + in[y][x+2]) / 3          0 <= y < H+2
 *   out[y][x] = (bx[y][x] + bx[y+1][x] + bx[y+2][x]) / 3
 * Schedule: for y in 0 .. H+1: compute row y of bx; if y >= 2, compute row
 * y-2 of out (which reads bx rows y-2, y-1, y).
 *
 * Arrays: in[H+2][W+2] (input), out[H][W] (output),
 *         bx[H+2][W] float (heap scratch, 4 MB).
 * A storage allocator should find: bx folds to 3 rows,
 * bx[y][x] -> bx'[y mod 3][x] (3 * W floats instead of (H+2) * W). This is
 * optimal for this schedule: when the last cell of bx row y is written,
 * rows y-2 and y-1 are still entirely live. (The paper's 2W+1-cell SMO
 * mapping bx[(2x - y) mod (2W + 1)] needs the two statements interleaved
 * per column inside a single x loop, which is not the schedule used here.)
 */
#include <stdio.h>
#include <stdlib.h>

#define H 1000
#define W 1000

__attribute__((noinline)) void kernel_blur_fused(float in[H + 2][W + 2], float out[H][W])
{
  float (*bx)[W] = malloc(sizeof(float[H + 2][W]));

  for (int y = 0; y < H + 2; y++) {
    for (int x = 0; x < W; x++)
      bx[y][x] = (in[y][x] + in[y][x + 1] + in[y][x + 2]) / 3.0f;
    if (y >= 2)
      for (int x = 0; x < W; x++)
        out[y - 2][x] = (bx[y - 2][x] + bx[y - 1][x] + bx[y][x]) / 3.0f;
  }

  free(bx);
}

int main(void)
{
  float (*in)[W + 2] = malloc(sizeof(float[H + 2][W + 2]));
  float (*out)[W] = malloc(sizeof(float[H][W]));

  for (int y = 0; y < H + 2; y++)
    for (int x = 0; x < W + 2; x++)
      in[y][x] = (float)((7 * y + 13 * x) % 101) / 101.0f;

  kernel_blur_fused(in, out);

  double s = 0.0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      s += (double)out[y][x] * (double)(1 + (y * W + x) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
