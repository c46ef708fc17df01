/*
 * harris: Harris-Stephens corner response (the PolyMage "harris" pipeline
 * used by Bhaskaracharya et al.), single channel, stages fused row by row.
 *
 * Definition (0 <= y < H, 0 <= x < W; the input has a 2-pixel border;
 * gradients are defined on (H+2) x (W+2), i.e. 0 <= y < H+2, 0 <= x < W+2):
 *   Ix[y][x]  = ( (in[y][x+2]   - in[y][x])
 *               + 2 (in[y+1][x+2] - in[y+1][x])
 *               + (in[y+2][x+2] - in[y+2][x]) ) / 12            (Sobel, d/dx)
 *   Iy[y][x]  = ( (in[y+2][x]   - in[y][x])
 *               + 2 (in[y+2][x+1] - in[y][x+1])
 *               + (in[y+2][x+2] - in[y][x+2]) ) / 12            (Sobel, d/dy)
 *   Ixx = Ix * Ix,  Ixy = Ix * Iy,  Iyy = Iy * Iy                (pointwise)
 *   Sxx[y][x] = sum_{dy,dx in 0..2} Ixx[y+dy][x+dx]   (same for Sxy, Syy)
 *   out[y][x] = (Sxx Syy - Sxy^2) - K (Sxx + Syy)^2    (det - k trace^2)
 * Schedule: for yy in 0 .. H+1: row yy of Ix and Iy (one x loop), row yy
 * of Ixx, Ixy, Iyy (one x loop); if yy >= 2: row yy-2 of Sxx, Sxy, Syy (one
 * x loop), then row yy-2 of out (one x loop).
 *
 * Arrays: in[H+4][W+4] (input), out[H][W] (output);
 *   Ix, Iy [H+2][W+2] float   (heap scratch, 0.6 MB each),
 *   Ixx, Ixy, Iyy [H+2][W+2] float (stack scratch, 0.6 MB each),
 *   Sxx, Sxy, Syy [H][W] float (heap scratch, 0.6 MB each).
 * A storage allocator should find: Ix, Iy fold to 1 row each (consumed in the
 * same yy iteration); Ixx, Ixy, Iyy fold to 3 rows each (yy mod 3);
 * Sxx, Sxy, Syy fold to 1 row each.
 */
#include <stdio.h>
#include <stdlib.h>

#define H 384
#define W 384
#define K 0.04f

__attribute__((noinline)) void kernel_harris(float in[H + 4][W + 4], float out[H][W])
{
  float (*Ix)[W + 2] = malloc(sizeof(float[H + 2][W + 2]));
  float (*Iy)[W + 2] = malloc(sizeof(float[H + 2][W + 2]));
  float Ixx[H + 2][W + 2];
  float Ixy[H + 2][W + 2];
  float Iyy[H + 2][W + 2];
  float (*Sxx)[W] = malloc(sizeof(float[H][W]));
  float (*Sxy)[W] = malloc(sizeof(float[H][W]));
  float (*Syy)[W] = malloc(sizeof(float[H][W]));

  for (int yy = 0; yy < H + 2; yy++) {
    for (int x = 0; x < W + 2; x++) {
      Ix[yy][x] = ((in[yy][x + 2] - in[yy][x])
                   + 2.0f * (in[yy + 1][x + 2] - in[yy + 1][x])
                   + (in[yy + 2][x + 2] - in[yy + 2][x])) * (1.0f / 12.0f);
      Iy[yy][x] = ((in[yy + 2][x] - in[yy][x])
                   + 2.0f * (in[yy + 2][x + 1] - in[yy][x + 1])
                   + (in[yy + 2][x + 2] - in[yy][x + 2])) * (1.0f / 12.0f);
    }
    for (int x = 0; x < W + 2; x++) {
      Ixx[yy][x] = Ix[yy][x] * Ix[yy][x];
      Ixy[yy][x] = Ix[yy][x] * Iy[yy][x];
      Iyy[yy][x] = Iy[yy][x] * Iy[yy][x];
    }
    if (yy >= 2) {
      int y = yy - 2;
      for (int x = 0; x < W; x++) {
        Sxx[y][x] = Ixx[y][x] + Ixx[y][x + 1] + Ixx[y][x + 2]
                  + Ixx[y + 1][x] + Ixx[y + 1][x + 1] + Ixx[y + 1][x + 2]
                  + Ixx[y + 2][x] + Ixx[y + 2][x + 1] + Ixx[y + 2][x + 2];
        Sxy[y][x] = Ixy[y][x] + Ixy[y][x + 1] + Ixy[y][x + 2]
                  + Ixy[y + 1][x] + Ixy[y + 1][x + 1] + Ixy[y + 1][x + 2]
                  + Ixy[y + 2][x] + Ixy[y + 2][x + 1] + Ixy[y + 2][x + 2];
        Syy[y][x] = Iyy[y][x] + Iyy[y][x + 1] + Iyy[y][x + 2]
                  + Iyy[y + 1][x] + Iyy[y + 1][x + 1] + Iyy[y + 1][x + 2]
                  + Iyy[y + 2][x] + Iyy[y + 2][x + 1] + Iyy[y + 2][x + 2];
      }
      for (int x = 0; x < W; x++) {
        float det = Sxx[y][x] * Syy[y][x] - Sxy[y][x] * Sxy[y][x];
        float trace = Sxx[y][x] + Syy[y][x];
        out[y][x] = det - K * trace * trace;
      }
    }
  }

  free(Ix);
  free(Iy);
  free(Sxx);
  free(Sxy);
  free(Syy);
}

int main(void)
{
  float (*in)[W + 4] = malloc(sizeof(float[H + 4][W + 4]));
  float (*out)[W] = malloc(sizeof(float[H][W]));

  /* a checkerboard of 24x24 squares (corners) plus a small ramp */
  for (int y = 0; y < H + 4; y++)
    for (int x = 0; x < W + 4; x++)
      in[y][x] = (float)(((y / 24) + (x / 24)) % 2)
                 + (float)((7 * y + 13 * x) % 101) / 1010.0f;

  kernel_harris(in, out);

  double s = 0.0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      s += (double)out[y][x] * (double)(1 + (y * W + x) % 131);
  printf("out %.6f\n", s);

  free(in);
  free(out);
  return 0;
}
