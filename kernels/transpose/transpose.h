#pragma once
// transpose (file 001, "Memoria compartida"): t = a^T for a rows x cols matrix a, naively and through a 32 x 32
// shared-memory tile, without and with the padding that removes bank conflicts.
#include <cstdint>

#include "launchlab/engine/workload.h"

namespace launchlab::kernels::transpose {

/// The shared-memory tile side (the seed's 32 x 32).
inline constexpr unsigned kTile = 32;
/// The wide padded tile ([64][65]): 16 elements per thread of its 32 x 8 auto block, 4x the loads in flight.
inline constexpr unsigned kWideTile = 64;
/// The bank picture's shape: 32 lanes x (32 banks unpadded, a separator column, 32 banks padded).
inline constexpr std::size_t kBankRows = 32, kBankCols = 65;

/// Fills the picture of one warp's shared-memory reads in the write phase (lane l reads tile[l][j], 4-byte words,
/// 32 banks): at (lane, bank) the number of the warp's lanes whose word lies in that bank (the conflict degree), 0
/// where the lane does not read, -1 in the separator column. Unpadded: one bank column of 32s (a 32-way conflict);
/// padded [32][33]: a diagonal of 1s. Computed on the host from the addresses; every implementation reports it.
void fillBankPicture(HostArray& banks);
/// Bank of 4-byte word `word` among 32 banks, and the word tile[row][col] of a tile with `rowWords` words per row.
constexpr std::uint32_t bankOf(std::uint64_t word) { return std::uint32_t(word % 32); }
constexpr std::uint64_t tileWord(std::uint32_t row, std::uint32_t col, std::uint32_t rowWords) {
  return std::uint64_t(row) * rowWords + col;
}

void cudaNaive(ImplContext& ctx);
void cudaTile(ImplContext& ctx);
void cudaTilePadded(ImplContext& ctx);
void cudaTilePadded64(ImplContext& ctx);

}  // namespace launchlab::kernels::transpose
