#pragma once
/// HostArray: a named, typed, C-ordered n-dimensional array in host memory.
/// Owns its storage (64-byte aligned). Not thread-safe; move it between threads.
#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "launchlab/engine/dtype.h"

namespace launchlab {

class HostArray {
 public:
  HostArray() = default;
  HostArray(std::string name, DType dtype, std::vector<std::size_t> shape);
  HostArray(const HostArray& other);
  HostArray& operator=(const HostArray& other);
  HostArray(HostArray&&) noexcept = default;
  HostArray& operator=(HostArray&&) noexcept = default;

  const std::string& name() const { return m_name; }
  void setName(std::string n) { m_name = std::move(n); }
  DType dtype() const { return m_dtype; }
  const std::vector<std::size_t>& shape() const { return m_shape; }
  std::size_t size() const { return m_size; }  ///< number of elements
  std::size_t bytes() const { return m_size * dtypeSize(m_dtype); }
  void* data() { return m_data.get(); }
  const void* data() const { return m_data.get(); }

  /// Typed views; throw std::logic_error when T does not match dtype().
  template <typename T>
  std::span<T> view() {
    check<T>();
    return {static_cast<T*>(data()), m_size};
  }
  template <typename T>
  std::span<const T> view() const {
    check<T>();
    return {static_cast<const T*>(data()), m_size};
  }
  /// Element i converted to double (any dtype).
  double at(std::size_t i) const;
  /// Fills every byte with 0xFF: NaN for floats, -1 for signed ints. Used to catch unwritten outputs.
  void poison();
  /// Same name, dtype, shape and bytes.
  bool operator==(const HostArray& other) const;

 private:
  template <typename T>
  void check() const {
    if (dtypeOf<T>() != m_dtype) throw std::logic_error("HostArray '" + m_name + "': typed view of the wrong dtype");
  }
  struct Free {
    void operator()(void* p) const;
  };
  std::string m_name;
  DType m_dtype = DType::F32;
  std::vector<std::size_t> m_shape;
  std::size_t m_size = 0;
  std::unique_ptr<void, Free> m_data;
};

}  // namespace launchlab
