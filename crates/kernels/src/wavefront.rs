//! Tiles run wavefront by wavefront with rayon (the paper's OpenMP parallel tiles).
//!
//! Tiles are numbered so that every wavefront is a contiguous range of tile ids and
//! every tile reads only its own storage and that of tiles of earlier wavefronts. Each
//! tile's storage is one chunk of `tile_len` cells, so the tiles of a wavefront get
//! disjoint `&mut` chunks and the earlier ones a shared slice: no locks, no `unsafe`.

use rayon::prelude::*;
use std::ops::Range;

/// Runs `f(tile, own_chunk, earlier)` for every tile; `earlier` holds the chunks of all
/// tiles before the tile's wavefront (tile `k`'s chunk at `k * tile_len`).
pub fn run<T, F>(data: &mut [T], tile_len: usize, fronts: &[Range<usize>], f: F)
where
    T: Send + Sync,
    F: Fn(usize, &mut [T], &[T]) + Sync,
{
    if tile_len == 0 {
        return;
    }
    for fr in fronts {
        let (done, rest) = data.split_at_mut(fr.start * tile_len);
        let cur = &mut rest[..(fr.end - fr.start) * tile_len];
        let done: &[T] = done;
        cur.par_chunks_mut(tile_len).enumerate().for_each(|(k, chunk)| f(fr.start + k, chunk, done));
    }
}

/// Like [`run`], with a second per-tile output array (`out_len` cells per tile).
pub fn run_with_out<T, U, F>(data: &mut [T], tile_len: usize, out: &mut [U], out_len: usize, fronts: &[Range<usize>], f: F)
where
    T: Send + Sync,
    U: Send + Sync,
    F: Fn(usize, &mut [T], &[T], &mut [U]) + Sync,
{
    if tile_len == 0 || out_len == 0 {
        return;
    }
    for fr in fronts {
        let (done, rest) = data.split_at_mut(fr.start * tile_len);
        let cur = &mut rest[..(fr.end - fr.start) * tile_len];
        let ocur = &mut out[fr.start * out_len..fr.end * out_len];
        let done: &[T] = done;
        cur.par_chunks_mut(tile_len).zip(ocur.par_chunks_mut(out_len)).enumerate().for_each(|(k, (chunk, o))| f(fr.start + k, chunk, done, o));
    }
}

/// Deterministic input values: SplitMix64 of `key`, as a number in `[0, 1)`.
#[inline]
pub fn hash01(key: u64) -> f64 {
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Key of a coordinate pair for [`hash01`].
#[inline]
pub fn key2(a: i64, b: i64) -> u64 {
    (a as u64).wrapping_mul(0x1_0000_0001).wrapping_add((b as u64).wrapping_mul(0x9E37_79B9))
}
