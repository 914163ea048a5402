// A run's GPU outputs from the worker's device memory (device_imports.h).
#include "gl/device_imports.h"

#include <chrono>
#include <string>

#if LAUNCHLAB_UI_INTEROP
#include "render/cuda_ipc.h"
#include "render/gl_interop.h"
#endif

namespace launchlab::ui {

const void* DeviceImports::find(const HostArray* array) const {
  for (const auto& e : m_entries)
    if (e.array == array) return e.device.get();
  return nullptr;
}

namespace {

const HostArray* outputNamed(const ImplResult& i, const std::string& name) {
  for (const auto& a : i.outputs)
    if (a.name() == name) return &a;
  return nullptr;
}

#if LAUNCHLAB_UI_INTEROP
/// One output: open the worker's handle, copy device to device, close. "" or why not.
std::string importOne(const DeviceOutput& d, const HostArray& host, std::shared_ptr<const void>& out) {
  if (d.bytes != host.bytes()) return "the exported buffer's size differs from the output's";
  const auto handle = ipc::IpcHandle::fromHex(d.ipcHandle);
  if (!handle) return "not a CUDA IPC handle";
  const ipc::OpenedBuffer peer = ipc::OpenedBuffer::open(*handle);
  if (!peer.ok()) return peer.error();
  const void* start = peer.at(d.offset, d.bytes);
  if (!start) return "the output does not lie in the memory its handle opens";
  auto copy = std::make_shared<render::DeviceCopy>(start, std::size_t(d.bytes));
  if (!copy->error().empty()) return copy->error();
  out = std::shared_ptr<const void>(copy, copy->data());  // the copy lives as long as the pointer
  return {};
}
#endif

}  // namespace

std::shared_ptr<const DeviceImports> importDeviceOutputs(const RunResult& r, int cudaOrdinal) {
  std::size_t exported = 0;
  for (const auto& i : r.impls) exported += i.deviceOutputs.size();
  if (!exported) return nullptr;
  std::vector<DeviceImports::Entry> entries;
  std::string firstError;
  const auto t0 = std::chrono::steady_clock::now();
#if LAUNCHLAB_UI_INTEROP
  if (std::string e = render::useDevice(cudaOrdinal); !e.empty()) firstError = e;
  for (const auto& i : r.impls)
    for (const auto& d : i.deviceOutputs) {
      if (!firstError.empty()) break;
      const HostArray* host = outputNamed(i, d.name);
      if (!host) continue;  // not kept: no view draws it
      std::shared_ptr<const void> device;
      if (std::string e = importOne(d, *host, device); !e.empty())
        firstError = d.name + ": " + e;
      else
        entries.push_back({host, std::move(device)});
    }
#else
  (void)cudaOrdinal;
  (void)outputNamed;
  firstError = "this window has no CUDA\u2013OpenGL interop";
#endif
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  QString note = QString("%1 GPU output%2 taken from the worker's device memory (CUDA IPC) in %3 ms")
                     .arg(entries.size())
                     .arg(entries.size() == 1 ? "" : "s")
                     .arg(ms, 0, 'f', 2);
  if (!firstError.empty())
    note += QString("; %1 not (%2): drawn from the host copy")
                .arg(exported - entries.size())
                .arg(QString::fromStdString(firstError));
  return std::make_shared<const DeviceImports>(std::move(entries), note);
}

}  // namespace launchlab::ui
