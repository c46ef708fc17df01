/*
 * blur-unfused: the same two-stage 3x3 box blur as blur-fused, but with the
 * two passes as two separate loop nests (bx is computed completely before
 * the vertical pass starts; Bhaskaracharya et al., Fig. 4(a) order).
 *
 * Definition (0 <= y < H, 0 <= x < W):
 *   bx[y][x]  = (in[y][x] + in[y][x+1] + in[y][x+2]) / 3          0 <= y < H+2
 *   out[y][x] = (bx[y][x] + bx[y+1][x] + bx[y+2][x]) / 3
 *
 * Arrays: in[H+2][W+2] (input), out[H][W] (output),
 *         bx[H+2][W] float (heap scratch, 4 MB).
 * A storage allocator should find: nothing to fold. Every cell of bx is
 * written in the first nest and still to be read in the second, so all
 * (H+2)*W cells are live at the boundary between the two nests.
 */
#include <stdio.h>
#include <stdlib.h>

#define H 1000
#define W 1000

__attribute__((noinline)) void kernel_blur_unfused(float in[H + 2][W + 2], float out[H][W])
{
  float (*bx)[W] = malloc(sizeof(float[H + 2][W]));

  for (int y = 0; y < H + 2; y++)
    for (int x = 0; x < W; x++)
      bx[y][x] = (in[y][x] + in[y][x + 1] + in[y][x + 2]) / 3.0f;

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      out[y][x] = (bx[y][x] + bx[y + 1][x] + bx[y + 2][x]) / 3.0f;

  free(bx);
}

int main(void)
{
  float (*in)[W + 2] = malloc(sizeof(float[H + 2][W + 2]));
  float (*out)[W] = malloc(sizeof(float[H][W]));

  for (int y = 0; y < H + 2; y++)
    for (int x = 0; x < W + 2; x++)
      in[y][x] = (float)((7 * y + 13 * x) % 101) / 101.0f;

  kernel_blur_unfused(in, out);

  double s = 0.0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      s += (double)out[y][x] * (double)(1 + (y * W + x) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
