/* A two-stage pipeline, interleaved: stage 2 reads the input and the
   intermediate row of stage 1 in one statement. */
#define H 8
#define W 10
void pipe2(float in[H + 1][W], float out[H][W]) {
  float tmp[H + 1][W];
  for (int y = 0; y <= H; y++) {
    for (int x = 0; x < W; x++)
      tmp[y][x] = in[y][x] * 2.0f;
    if (y >= 1)
      for (int x = 0; x < W; x++)
        out[y - 1][x] = tmp[y - 1][x] + tmp[y][x] + in[y][x];
  }
}
