#pragma once
/// Exceptions thrown inside implementations and turned into failed results at the engine boundary.
#include <stdexcept>
#include <string>

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
/// Bad user input detected while running (e.g. an .npy of the wrong shape).
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace launchlab
