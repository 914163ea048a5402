#pragma once
/// How many OpenMP threads CPU implementations use when a window draws beside them.
///
/// A cpu-parallel loop waits at its end for its slowest thread. With as many threads as the machine has, the window's
/// own threads (GUI, GL render) take a core from one of them now and then, and the whole loop waits for that thread's
/// next time slice: 4–8 ms against a loop of 3 ms (measured on the H200's 16-core host: s3-compute-pi's CPU parallel
/// 8.95 ms in the window at 1920×1080, 2.8 ms from the CLI). So runs the window starts leave it cores to draw with.

namespace launchlab {

/// The threads of a machine with `hardwareThreads` that CPU runs beside a window may use: all but two from 8 threads
/// up, all but one from 4, else all (never fewer than one).
int cpuThreadsLeavingCores(int hardwareThreads);

/// The window's choice, made once per process: 0 when the user set OMP_NUM_THREADS (their number stands), else
/// cpuThreadsLeavingCores(this machine). The window's engine applies it on its compute thread
/// (useCpuThreadsOnThisThread) and its local GPU worker gets it as OMP_NUM_THREADS (WorkerCommand::env).
int cpuThreadsBesideTheWindow();

/// The OpenMP team size of parallel loops started from the calling thread from now on (omp_set_num_threads);
/// `threads` <= 0 leaves it as it is.
void useCpuThreadsOnThisThread(int threads);

}  // namespace launchlab
