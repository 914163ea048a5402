#pragma once
/// Exceptions thrown inside implementations and turned into failed results at the engine boundary.
#include <stdexcept>
#include <string>
#include <string_view>

namespace launchlab {

/// The launch configuration is invalid for the device (names the limit and the device's value).
struct InvalidLaunch : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// Not enough device or host memory (says how much was asked and how much is free).
struct OutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// A CUDA API or kernel error; the message carries the error's name and where it happened.
struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// What the implementation needs is missing on this machine (e.g. a library loaded at run time): the
/// implementation is skipped with this reason, not failed.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// Bad user input detected while running (e.g. an .npy of the wrong shape).
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Calls f() and returns what it returns; whatever it throws comes out as one BadInput "<context>: <reason>".
/// For readers of untrusted input (files, the worker's messages) built on libraries with their own exceptions.
template <class F>
auto rethrowAsBadInput(std::string_view context, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    throw BadInput(std::string(context) + ": " + e.what());
  }
}

}  // namespace launchlab
