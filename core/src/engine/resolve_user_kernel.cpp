// The request's student kernel ("my-kernel"): its exercise, the dtype and choices it is written for, and the
// implementation it becomes (launchlab/course/exercise.h).
#include "launchlab/numba/numba.h"
#include "resolve.h"

namespace launchlab::detail {

namespace {

const Exercise* exerciseOf(const RunRequest& req, std::vector<RequestProblem>& problems) {
  const UserKernel& k = *req.userKernel;
  const Exercise* ex = exerciseFor(req.workload, k.exercise);
  if (!ex) {
    std::string known;
    for (const auto& e : exercises())
      if (e.workload == req.workload) known += (known.empty() ? "" : ", ") + e.id;
    problems.push_back({"kernel", k.exercise.empty()
                                      ? req.workload + " has no exercise for a kernel of your own yet"
                                      : "unknown exercise '" + k.exercise + "' for " + req.workload +
                                            (known.empty() ? std::string() : " (known: " + known + ")")});
    return nullptr;
  }
  if (ex->workload != req.workload) {
    problems.push_back({"kernel", "exercise '" + ex->id + "' runs in workload " + ex->workload});
    return nullptr;
  }
  return ex;
}

std::shared_ptr<const ImplSpec> userImplSpec(const Registry& reg, const UserKernel& k, const Exercise& ex) {
  auto spec = std::make_shared<ImplSpec>();
  spec->id = std::string(kMyKernel);
  spec->title = userKernelTitle(k);
  spec->description = isPythonKernel(k)
                          ? "Your kernel, compiled by Numba: " + numbaDeclaration(k, ex)
                          : "Your kernel, compiled with NVRTC: " + kernelDeclaration(ex, effectiveKernelName(k, ex));
  spec->kind = ImplKind::Cuda;
  spec->usesLaunchConfig = true;
  spec->outputsFromReference = ex.outputsFromReference;
  if (const auto& runner = reg.userKernelRunner())
    spec->run = [runner, k, &ex](ImplContext& ctx) { runner(ctx, k, ex); };
  else
    spec->unavailableReason = "built without CUDA: a kernel of your own runs in a CUDA build";
  return spec;
}

}  // namespace

void resolveUserKernel(const Registry& reg, const RunRequest& req, Resolved& r, std::vector<RequestProblem>& problems) {
  const Exercise* ex = exerciseOf(req, problems);
  if (!ex) return;
  if (std::string bad = checkKernelSource(req.userKernel->source); !bad.empty()) {
    problems.push_back({"kernel", bad});
    return;
  }
  // A Numba kernel is generic in its dtype (numba.h): it is compiled for the run's.
  if (r.setup.dtype != ex->dtype && !isPythonKernel(*req.userKernel))
    problems.push_back({"dtype", "the kernel of exercise " + ex->id + " is written for " +
                                     std::string(dtypeName(ex->dtype)) + ": use --dtype " +
                                     std::string(dtypeName(ex->dtype))});
  // Parameters that did not resolve (a value out of range) are reported already and leave none to compare.
  for (const auto& [name, value] : ex->requiredChoices)
    if (r.setup.params.has(name) && r.setup.params.choice(name) != value)
      problems.push_back(
          {"param:" + name, "the kernel of exercise " + ex->id + " is written for " + name + " = " + value});
  if (!problems.empty() || !selects(req, kMyKernel)) return;
  r.userImpl = userImplSpec(reg, *req.userKernel, *ex);
  r.impls.push_back(r.userImpl.get());
}

}  // namespace launchlab::detail
