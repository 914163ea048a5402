#pragma once
/// Errors as values for the GL library: nothing in launchlab_gl throws across its API.
#include <optional>
#include <string>
#include <utility>

namespace launchlab::gl {

/// Success, or one line saying what failed.
struct Status {
  std::string error;
  bool ok() const { return error.empty(); }
  static Status fail(std::string why) { return {why.empty() ? std::string("unknown error") : std::move(why)}; }
};

/// A value, or one line saying why there is none.
template <class T>
class Expected {
 public:
  Expected(T value) : m_value(std::move(value)) {}  // NOLINT: implicit on purpose
  static Expected fail(std::string why) { return Expected(Status::fail(std::move(why))); }
  Expected(Status failed) : m_error(std::move(failed.error)) {}  // NOLINT
  bool ok() const { return m_value.has_value(); }
  const std::string& error() const { return m_error; }
  T& operator*() { return *m_value; }
  const T& operator*() const { return *m_value; }
  T* operator->() { return &*m_value; }
  const T* operator->() const { return &*m_value; }

 private:
  std::optional<T> m_value;
  std::string m_error;
};

}  // namespace launchlab::gl
