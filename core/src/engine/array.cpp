#include "launchlab/engine/array.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace launchlab {

void HostArray::Free::operator()(void* p) const { std::free(p); }

namespace {
void* allocAligned(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  std::size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

HostArray::HostArray(std::string name, DType dtype, std::vector<std::size_t> shape)
    : m_name(std::move(name)), m_dtype(dtype), m_shape(std::move(shape)) {
  m_size = 1;
  for (auto d : m_shape) m_size *= d;
  m_data.reset(allocAligned(bytes()));
}

HostArray::HostArray(const HostArray& o) : m_name(o.m_name), m_dtype(o.m_dtype), m_shape(o.m_shape), m_size(o.m_size) {
  m_data.reset(allocAligned(bytes()));
  if (bytes()) std::memcpy(m_data.get(), o.m_data.get(), bytes());
}

HostArray& HostArray::operator=(const HostArray& o) {
  if (this != &o) {
    HostArray copy(o);
    *this = std::move(copy);
  }
  return *this;
}

double HostArray::at(std::size_t i) const {
  return visitDType(m_dtype, [&](auto t) -> double {
    using T = decltype(t);
    return static_cast<double>(static_cast<const T*>(data())[i]);
  });
}

bool HostArray::operator==(const HostArray& o) const {
  if (m_name != o.m_name || m_dtype != o.m_dtype || m_shape != o.m_shape || m_size != o.m_size) return false;
  return bytes() == 0 || std::memcmp(data(), o.data(), bytes()) == 0;
}

void HostArray::poison() {
  // Large outputs are poisoned by every thread (a sweep poisons one per point; one thread writes ~10 GB/s).
  constexpr std::size_t kChunk = std::size_t(1) << 20;
  const std::size_t chunks = (bytes() + kChunk - 1) / kChunk;
  auto* base = static_cast<unsigned char*>(m_data.get());
#pragma omp parallel for schedule(static) if (chunks > 4)
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = c * kChunk;
    std::memset(base + begin, 0xFF, std::min(kChunk, bytes() - begin));
  }
}

}  // namespace launchlab
