// The course catalogue as data: one entry per seed experiment a workload runs. Sizes, dtypes, inputs and launches
// are the seed's (the line given in `seed` is the cell they come from); `differs` says what is not and why.
#include "launchlab/course.h"

#include <algorithm>

#include "launchlab/chapters.h"

namespace launchlab {

namespace {

constexpr auto kTp3 = "000_945c5bbc964fcfb4.txt";
constexpr auto kTp3Name = "TP 3.1 + TP 3.2 (French)";
constexpr auto kEs = "001_88843509cc7ed521.txt";
constexpr auto kEsName = "Numba (Spanish notes)";
constexpr auto kDli = "002_5e63c1f941247341.txt";
constexpr auto kDliName = "Introduction to CUDA Python with Numba (English)";
constexpr auto kS3 = "003_b76f2a92aa2432c6.txt";
constexpr auto kS3Name = "Numba Session 3 exercises";
constexpr auto kAtlas = "004_0b07bc7e0cc6bcde.txt";
constexpr auto kAtlasName = "ATLAS GPU Training: the Python part";

/// A request with the seed's fields; reps, warm-up and seed keep RequestText's defaults.
RequestText req(std::string workload, std::string n, std::string dtype, std::string block, std::string grid,
                std::string impls, std::map<std::string, std::string> params = {}) {
  RequestText t;
  t.workload = std::move(workload);
  t.n = std::move(n);
  t.dtype = std::move(dtype);
  t.block = std::move(block);
  t.grid = std::move(grid);
  t.impls = std::move(impls);
  t.params = std::move(params);
  return t;
}

std::vector<CourseExperiment> tp31() {
  return {
      {"tp31-monte-carlo-cpu", kChapterUfuncs, "monte_carlo_pi compiled for the CPU (nsamples = 1000000)",
       {kTp3, kTp3Name, "2. Premiers pas : Compilation pour le CPU — Consigne (monte_carlo_pi)", 210},
       "The compiled loop on one core against all cores: the estimate is within a few 1e-3 of pi.",
       "The seed times the Python loop against @jit; here cpu-serial is the compiled loop (no interpreter), drawn "
       "in chunks of 10000 with xoroshiro128+ instead of random.random.",
       req("monte_carlo_pi", "1000000", "f32", "auto", "auto", "cpu-serial,cpu-parallel")},
      {"tp31-add-ufunc", kChapterUfuncs, "add_ufunc(a, b) on the GPU: four numbers",
       {kTp3, kTp3Name, "2. Numba pour le GPU — Création de ufuncs pour le GPU (add_ufunc)", 553},
       "On 4 elements the GPU loses: launch and transfers cost microseconds, the addition nothing.", "",
       req("vector_add", "4", "i64", "auto", "auto", "cpu-serial,cpu-parallel,cuda-one-per-thread",
           {{"input", "seed-a-b"}})},
      {"tp31-add-ufunc-broadcast", kChapterUfuncs, "add_ufunc(b, c): b[4] broadcast over the rows of c[4 x 4]",
       {kTp3, kTp3Name, "2. Numba pour le GPU — %timeit add_ufunc(b, c) (broadcasting, int64)", 602},
       "16 int64 additions: NumPy on the CPU wins, the GPU pays launch and copies for nothing.",
       "NumPy broadcasts b without copying it; here b's row is repeated into a 16-element y (10, 20, 30, 40, 10, "
       "...), so the GPU adds two flat arrays of 16 (c flattened is x = arange(16)).",
       req("vector_add", "16", "i64", "auto", "auto", "cpu-serial,cpu-parallel,cuda-one-per-thread",
           {{"input", "seed-broadcast"}})},
      {"tp31-gaussian-pdf", kChapterUfuncs, "gaussian_pdf on a million float32",
       {kTp3, kTp3Name, "2. Numba pour le GPU — gaussian_pdf (x ~ uniform(-3, 3), 1000000 float32)", 671},
       "A compute-heavier ufunc: the kernel is fast, the transfers dominate the total.", "",
       req("gaussian_pdf", "1000000", "f32", "auto", "auto", "all",
           {{"mean", "0"}, {"sigma", "1"}, {"xmin", "-3"}, {"xmax", "3"}})},
      {"tp31-polar-distance", kChapterUfuncs, "polar_distance with a CUDA device function",
       {kTp3, kTp3Name, "2. Fonctions de périphérique CUDA (polar_to_cartesian, device=True)", 777},
       "The device function is inlined: the same time as writing the formula in the ufunc.", "",
       req("polar_distance", "1000000", "f32", "auto", "auto", "all")},
      {"tp31-zero-suppress", kChapterUfuncs, "zero_suppress on the noisy pulse train (amplitude 300)",
       {kTp3, kTp3Name, "2. Exercice : Accélérer une fonction sur GPU (zero_suppress)", 842},
       "The noise on the baseline disappears; the pulses stay.", "",
       req("pulse_waveform", "100000", "i16", "auto", "auto", "all",
           {{"amplitude", "300"}, {"cycles", "23"}, {"noise_sigma", "3"}, {"threshold", "15"}})},
      {"tp31-device-arrays", kChapterUfuncs, "add_ufunc on device arrays (n = 100000 float32)",
       {kTp3, kTp3Name, "3. Gestion de la mémoire GPU — add_ufunc with CUDA device arrays", 922},
       "Host arrays copy x, y up and out back every call; device inputs copy out back; out= copies nothing.",
       "The seed's %timeit calls are repetitions here: cuda.to_device (and the final copy_to_host of out=) happen "
       "once, outside the timing, as in the seed.",
       req("vector_add", "100000", "f32", "auto", "auto",
           "cpu-serial,cpu-parallel,cuda-one-per-thread,cuda-device-inputs,cuda-device-output",
           {{"input", "seed-2x"}})},
      {"tp31-make-pulses", kChapterUfuncs, "make_pulses + add_ufunc + zero_suppress: keep the data on the device",
       {kTp3, kTp3Name, "3. Consigne : Optimiser les transferts de mémoire", 1062},
       "Host round trips against device-resident arrays against one fused kernel: same result, far fewer bytes.", "",
       req("pulse_waveform", "100000", "f32", "auto", "auto", "all",
           {{"amplitude", "100"}, {"cycles", "23"}, {"noise_sigma", "3"}, {"threshold", "15"}})},
      {"tp31-nn-hidden-layer", kChapterUfuncs, "Neural-network hidden layer (1M neurons)",
       {kTp3, kTp3Name, "4. Accélérer les calculs des réseaux neuronaux sur GPU", 1139},
       "Three ufuncs on host arrays pay every transfer twice; device arrays, fusion and pinned streams do not.",
       "The assessment's 100M neurons: set n to 100M.",
       req("nn_hidden_layer", "1000000", "f32", "auto", "auto", "all")},
      {"tp31-l2-norm", kChapterUfuncs, "l2_norm gufunc on 10 points of the unit circle",
       {kTp3, kTp3Name, "6. Annexe : Ufuncs généralisées (l2_norm)", 1314},
       "Every norm is 1.0: a generalized ufunc maps each row to one value.", "",
       req("l2_norm", "10", "f32", "auto", "auto", "all", {{"d", "2"}, {"input", "unit-rows"}})},
  };
}

std::vector<CourseExperiment> tp32() {
  const std::string cover = "cpu-serial,cpu-emulated-launch,cuda-bounds-checked,cuda-no-bounds-check";
  const std::string seedKernel = "cpu-serial,cpu-emulated-launch,cuda-no-bounds-check";  // the seed's add_kernel: no check
  return {
      {"tp32-add-kernel", kChapterCustomKernels, "add_kernel[32, 128] on 4096 int32",
       {kTp3, kTp3Name, "TP 3.2 — 2. Premier Kernel CUDA : Addition de Tableaux 1D", 1434},
       "One thread per element: 32 x 128 threads = n, out = arange + 1.", "",
       req("vector_add", "4096", "i32", "128", "32", "cpu-serial,cpu-parallel,cuda-one-per-thread",
           {{"input", "arange"}})},
      {"tp32-no-synchronize", kChapterCustomKernels, "Drop cuda.synchronize(): the copy of the result waits anyway",
       {kTp3, kTp3Name, "TP 3.2 — Exercice : Modifier le Code et Observer les Effets (4. supprimer cuda.synchronize())",
        1454},
       "Same result and same total time: without the synchronize the launch returns at once and the copy waits.",
       "Timed with the host clock on the default stream, like the seed's cell; the split between the kernel and "
       "the copy moves, the total does not.",
       req("vector_add", "4096", "i32", "128", "32", "cpu-serial,cuda-explicit-sync,cuda-no-sync",
           {{"input", "arange"}})},
      {"tp32-coverage", kChapterCustomKernels, "Modify the launch: 32 x 128 covers 4096 exactly",
       {kTp3, kTp3Name, "TP 3.2 — Exercice : Modifier le Code et Observer les Effets", 1479},
       "Which block wrote which element: one row per block, every element written once.",
       "Each thread writes its block number instead of x + y, so the coverage is visible (--param "
       "value=x-plus-y shows the seed's 1 ... 4096).",
       req("launch_coverage", "4096", "i32", "128", "32", cover)},
      {"tp32-coverage-too-few", kChapterCustomKernels, "Fewer threads than elements: 16 x 128 on 4096",
       {kTp3, kTp3Name, "TP 3.2 — Résultats et Explications : 1 & 2 - Réduction du nombre total de threads", 1488},
       "Half of the array is never written (-1): the grid needs ceil(n / block) blocks.",
       "Each thread writes its block number instead of x + y (--param value=x-plus-y shows the seed's values).",
       req("launch_coverage", "4096", "i32", "128", "16", seedKernel)},
      {"tp32-coverage-too-many", kChapterCustomKernels, "More threads than elements: 64 x 128 on 4096",
       {kTp3, kTp3Name, "TP 3.2 — Résultats et Explications : 3 - Augmentation du nombre total de threads", 1497},
       "Without the bounds check, 4096 threads write past the end (counted in a guard zone).",
       "Each thread writes its block number instead of x + y (--param value=x-plus-y shows the seed's values); the "
       "writes past the end land in a guard zone.",
       req("launch_coverage", "4096", "i32", "128", "64", seedKernel)},
      {"tp32-square", kChapterCustomKernels, "square_device: a CPU function rewritten as a kernel (4096 int64)",
       {kTp3, kTp3Name, "TP 3.2 — Exercice : Accélérer une Fonction CPU en un Kernel CUDA (square_device)", 1574},
       "out = a**2 with one thread per element; blocks = ceil(4096 / threads).",
       "The seed leaves blocks and threads to the student (TODO); the preset uses auto (ceil(n / block)).",
       req("square", "4096", "i64", "auto", "auto", "all")},
      {"tp32-grid-stride-add", kChapterCustomKernels, "Grid-stride add_kernel[30, 128] on 100000 int32",
       {kTp3, kTp3Name, "TP 3.2 — 4. Premier Grid Stride Loop : add_kernel", 1749},
       "3840 threads cover 100000 elements; one thread per element with the same launch leaves the tail unwritten "
       "(cpu-emulated-one-per-thread shows it without a GPU).",
       "", req("vector_add", "100000", "i32", "128", "30",
               "cpu-serial,cpu-emulated-grid-stride,cpu-emulated-one-per-thread,cuda-grid-stride",
               {{"input", "arange"}})},
      {"tp32-hypot-one-thread", kChapterCustomKernels, "hypot_stride[1, 1]: one thread does everything",
       {kTp3, kTp3Name, "TP 3.2 — Exécution Monothread sur le GPU", 1851},
       "One GPU thread is far slower than one CPU core.", "",
       [] {
         auto t = req("hypot", "1000000", "f32", "1", "1", "cpu-serial,cpu-emulated-grid-stride,cuda-grid-stride");
         t.reps = "3";
         return t;
       }()},
      {"tp32-hypot-128x64", kChapterCustomKernels, "hypot_stride[128, 64]: the parallel launch",
       {kTp3, kTp3Name, "TP 3.2 — Exécution Parallèle sur le GPU", 1862},
       "8192 threads with a grid-stride loop: orders of magnitude faster than 1 x 1.", "",
       req("hypot", "1000000", "f32", "64", "128", "cpu-serial,cpu-emulated-grid-stride,cuda-grid-stride")},
      {"tp32-atomic-counter", kChapterAtomics, "thread_counter race against atomic add, [64, 64]",
       {kTp3, kTp3Name, "TP 3.2 — 4. Opérations Atomiques (thread_counter_race_condition / safe)", 1943},
       "The race loses most of the 4096 increments; atomicAdd counts them all.", "",
       req("atomic_counter", "4096", "i32", "64", "64", "all")},
      {"tp32-histogram", kChapterAtomics, "cuda_histogram[128, 64]: 10000 normal float32 in 10 bins on [-4, 4)",
       {kTp3, kTp3Name, "TP 3.2 — Exercice : Kernel CUDA pour un Histogramme Accéléré", 2023},
       "A bell in 10 bins; global atomics agree exactly with the CPU, and so does the seed's rule on this data.",
       "The seed's cpu_histogram truncates toward zero in float64, so x just below xmin lands in bin 0; the "
       "reference drops such x, like CUB, and cpu-seed-rule is the seed's rule (a demonstration; it differs only "
       "when such x exist). Counts are uint32 (seed: int32).",
       req("histogram", "10000", "f32", "64", "128", "cpu-serial,cpu-parallel,cpu-seed-rule,cuda-global-atomics",
           {{"bins", "10"}, {"xmin", "-4"}, {"xmax", "4"}, {"distribution", "normal"}})},
  };
}

std::vector<CourseExperiment> otherNotebooks() {
  return {
      {"es-atomic-counter-4x128", kChapterAtomics, "contador_global_atomic[4, 128]: 512 increments",
       {kEs, kEsName, "Operaciones atomicas — Código Correcto (Con Operaciones Atómicas)", 567},
       "Expected 128 * 4 = 512: the atomic counter gets it, the race does not.", "",
       req("atomic_counter", "512", "i32", "128", "4", "all")},
      {"dli-nn-hidden-layer-512", kChapterUfuncs, "Hidden layer as three @cuda.jit kernels, 512 threads per block",
       {kDli, kDliName, "Accelerate Neural Network Calculations (solution with cuda.jit)", 833},
       "Three kernels on device arrays with blocks of 512: the transfers still dominate.", "",
       req("nn_hidden_layer", "1000000", "f32", "512", "auto", "cpu-serial,cpu-parallel,cuda-device-resident")},
      {"s3-row-normalize", kChapterPorting, "normalize[1, 32] on a 32 x 3 arange matrix",
       {kS3, kS3Name, "Porting — Rewriting NumPy array ops (normalize)", 165},
       "Each row divided by its mean; one thread per row, in place like the seed or into a separate array.",
       "The in-place variant normalises a device copy of x (so the input stays for verification).",
       req("row_normalize", "32", "f32", "32", "1",
           "cpu-serial,cpu-parallel,cuda-thread-per-row,cuda-thread-per-row-in-place",
           {{"d", "3"}, {"input", "arange"}})},
      {"s3-compute-pi", kChapterRandom, "compute_pi[24, 64] with 10000 iterations per thread",
       {kS3, kS3Name, "Random Number Generation (compute_pi)", 295},
       "Each of 1536 threads estimates pi from 10000 points; their mean is within ~1e-3 of pi.",
       "cuRAND Philox on the GPU and xoroshiro128+ on the CPU instead of Numba's xoroshiro128p; the per-thread "
       "estimates out[tid] are summed, not kept.",
       req("monte_carlo_pi", "15360000", "f32", "64", "24", "all", {{"iters", "10000"}, {"shape", "circle"}})},
      {"s3-reduce", kChapterReduce, "@cuda.reduce sum_reduce on arange(1234) + 1",
       {kS3, kS3Name, "The Reduce Generator (sum_reduce)", 310},
       "The sum is 761995, exact in float64 whatever the order.", "",
       req("reduce_sum", "1234", "f64", "auto", "auto", "all", {{"input", "arange"}})},
      {"s3-forall-round", kChapterPorting, "gpu_round.forall(10) on 10 float64, 3 decimals",
       {kS3, kS3Name, "The ForAll Generator (gpu_round)", 387},
       "forall picks the launch from the occupancy API; the manual launch gives the same result.", "",
       req("round_decimals", "10", "f64", "auto", "auto", "all", {{"decimals", "3"}})},
      {"s3-caching", kChapterPorting, "The first call against the next ones, on a 64 x 64 float64 (warm-up 0)",
       {kS3, kS3Name, "Performance — Caching (go_fast on arange(4096).reshape(64, 64))", 419},
       "first_rep_total_ms (the cold first repetition) against the median of the warm ones.",
       "The seed's first call includes Numba's JIT compilation; LaunchLab's kernels are compiled ahead of time, so "
       "the cold cost here is loading the module (lazy loading) and the first launch, far smaller. go_fast (trace "
       "of tanh plus a) has no workload: row_normalize on the same 64 x 64 arange float64 stands in.",
       [] {
         auto t = req("row_normalize", "64", "f64", "auto", "auto", "all", {{"d", "64"}, {"input", "arange"}});
         t.warmup = "0";
         return t;
       }()},
      {"atlas-tree-reduction", kChapterReduce, "Tree reduction: the race, float64 atomics, one launch per level",
       {kAtlas, kAtlasName, "Schedule — Introduce tree-reduction", 27},
       "The race loses most additions; atomics and the 20-launch tree (2^20 values) get the sum.",
       "The seed file only names the session (its notebook is not in the seed); the variants follow its outline: "
       "out[0] += x[i], cuda.atomic.add in float64, and tree_sum_step halving the array in global memory.",
       req("reduce_sum", "1048576", "f64", "auto", "auto",
           "cpu-serial,cuda-naive-race,cuda-atomics,cuda-tree-global-halving", {{"input", "random"}})},
      {"atlas-mc-circle", kChapterAtlasPython, "Project 2: pi from 10 x 2^20 random points of (-1, 1)^2, 1024 x 1024",
       {kAtlas, kAtlasName, "Schedule — Project 2: compute area by random sampling (circle)", 32},
       "4 hits / N lands within a few 1e-3 of pi; the series of independent runs (1, 2, 5 x 2^20, then N) closes "
       "in on the pi line as 1 / sqrt(N). --n 10000Mi is the seed's last point (GPU).",
       "The project's notebook is linked from the schedule: its solution's compute_pi(10 * 1024**2) with 1024 x "
       "1024 threads; xoroshiro128p is replaced by a counter-based stream per thread, the same on the CPU.",
       req("monte_carlo_area", "10485760", "f32", "1024", "1024", "all", {{"shape", "circle"}})},
      {"atlas-mc-mandelbrot-area", kChapterAtlasPython, "Project 2: the Mandelbrot set's area from 2^20 random points",
       {kAtlas, kAtlasName, "Schedule — Review Project 2 solutions (the Mandelbrot area)", 34},
       "9 hits / N near 1.5066 (Förstemann), inside the proven bounds 1.50640 - 1.53121 only once N is large: "
       "the binomial error at 2^20 points is 0.0033.",
       "The solution runs compute_mandelbrot_area(10 * 1024**2); here 2^20 trials keep the CPU reference under a "
       "second (--n 10Mi and beyond on the GPU); Floyd's test has a cap of 10000 rounds (the seed has none).",
       req("monte_carlo_area", "1048576", "f32", "1024", "1024", "all", {{"shape", "mandelbrot"}})},
      {"atlas-pycuda-increment", kChapterAtlasPython, "PyCUDA increment: one block of 1024 threads on 1024 int32",
       {kAtlas, kAtlasName, "Python tools for CUDA — PyCUDA (increment)", 95},
       "The smallest launch: one block, one element per thread; data = arange(1024) + 1.",
       "The increment is vector_add's cuda-in-place (data += y with y = ones, in place on the device); the "
       "result lands in the output array so the input stays for verification.",
       req("vector_add", "1024", "i32", "1024", "1", "cpu-serial,cuda-in-place,cuda-one-per-thread",
           {{"input", "arange"}})},
      {"atlas-quadratic", kChapterAtlasPython, "Quadratic formula: NumPy's passes against one kernel (1024 threads)",
       {kAtlas, kAtlasName, "Compiling Python code to run on GPUs (quadratic_formula_numba_cuda)", 459},
       "Nine array passes move 5.5x the bytes of one fused kernel.", "",
       req("quadratic", "1000000", "f64", "1024", "auto", "all")},
      {"atlas-mandelbrot", kChapterAtlasPython, "Mandelbrot on all accelerators: 1000 x 1000, (32, 32) x (32, 32)",
       {kAtlas, kAtlasName, "Mandelbrot on all accelerators (linked Colab notebook)", 480},
       "Members run to Floyd's cycle test or the cap while outside pixels escape in a few steps: the 'rounds' "
       "image shows the work, and the scattered variant shows what mixing them in one warp costs.",
       "The notebook is linked, not included: its image (x = -2 + 0.003 i, y = -1.5 + 0.003 j, complex64, Floyd's "
       "test) and launch are those the issue gives; a cap of 1000 rounds replaces the unbounded loop.",
       req("mandelbrot", "1000", "f32", "32x32", "32x32", "all")},
      {"atlas-groupby-sum", kChapterAtlasPython, "cuDF group-by: 1000000 rows summed per jetid",
       {kAtlas, kAtlasName, "The RAPIDS project — df.groupby(\"jetid\").sum().sort_index()", 530},
       "About 95000 groups of about 10 rows: CUB's reduce-by-key against atomics on a dense key table and a "
       "thread or a warp per segment (the seed's Awkward sum_in_cuda); compare rows_per_s.",
       "The DataFrame's columns are float64 as CuPy makes them; the seed's Awkward example is the same segmented "
       "sum (cpu-serial's per-list sum, tested on [[1.1, 2.2, 3.3], [], [4.4, 5.5]]).",
       req("groupby_sum", "1000000", "f64", "auto", "auto", "all")},
      // The seed ends on the Z mass section (line 602); Project 1 (the schedule, line 28) histograms those masses, so
      // its two experiments follow it at the same line, in this order.
      {"atlas-z-mass", kChapterAtlasPython, "Z mass from 10M jagged events: a thread per event, (N + 1023) // 1024 x 1024",
       {kAtlas, kAtlasName, "Computing Z mass on a GPU with Awkward Arrays", 602},
       "The log-scale spectrum shows omega, phi, J/psi, psi', the Upsilons and the Z; the fit gives the Z mass and "
       "width with errors; muons_per_s of cuda-fused (the target: 1e9 at 10M events).",
       "The tutorial's notebook (CMS 2012 open data, 10M events) is not in the seed: a generated sample with the "
       "real spectrum's resonances stands in (--input takes the real columns as .npy); the fused kernel runs beside "
       "the tutorial's per-event one.",
       req("z_mass", "10000000", "f32", "1024", "auto", "all")},
      {"atlas-histogram-private", kChapterAtlasPython, "Project 1 (a): a private 120-bin histogram per thread on 10M masses",
       {kAtlas, kAtlasName, "Project 1: parallel histogram filling (schedule, line 28) on the Z masses", 602},
       "Metric private_bytes: 10M threads x 120 bins x 4 B = 4.8 GB of private histograms, against one shared "
       "histogram with atomics.",
       "The project's notebook is linked, not included: the variants follow its outline on z_mass's generated masses.",
       req("histogram_contention", "10000000", "f32", "auto", "auto",
           "cpu-serial,cuda-private-per-thread,cuda-global-atomics", {{"bins", "120"}})},
      {"atlas-histogram-contention", kChapterAtlasPython, "Project 1 (b, c): 1200 bins (bin = 10 m) with atomics, then fewer",
       {kAtlas, kAtlasName, "Project 1: parallel histogram filling, the contention sweep", 602},
       "Global atomics against shared-memory ones at 1200 bins; sweep --param bins=1200,600,300,150,75,60,30,15,10,"
       "5,4,3,2,1 (scripts/bench/workloads_atlas_histogram.sh) to see the time grow as the bins shrink.",
       "The project's notebook is linked, not included: the variants follow its outline on z_mass's generated masses.",
       req("histogram_contention", "10000000", "f32", "auto", "auto",
           "cpu-serial,cuda-global-atomics,cuda-shared-atomics,cuda-shared-per-lane", {{"bins", "1200"}})},
  };
}

/// File 001's memory chapter (issue 9): matrices, coalescing and shared memory.
std::vector<CourseExperiment> memoryChapter() {
  return {
      {"es-coalescing", kChapterMemory, "add_experiment[1024, 1024]: stride 16 against coalesced on n = 2^20",
       {kEs, kEsName, "Effective use of the memory subsystem — add_experiment(a, b, out, stride, coalesced)", 585},
       "The strided kernel's lanes each need a 32-byte sector of their own (32 per warp load against 4): several "
       "times slower for the same useful bytes. Sweep --param stride=1:32:1 for the curve.",
       "The seed's cell leaves the sizes to the DLI notebook it follows: n = 2^20 outputs, a and b of 16·n random "
       "float32, stride 16, 1024 blocks of 1024 threads.",
       req("coalescing", "1048576", "f32", "1024", "1024", "all", {{"stride", "16"}})},
      {"es-col-sums", kChapterMemory, "col_sums[64, 256] on 16384 x 16384: a thread per column against per row",
       {kEs, kEsName, "Effective use of the memory subsystem — col_sums(a, sums, ds)", 609},
       "Column sums (coalesced) come out about 2x faster than row sums (strided): metrics col_sums_ms and "
       "row_sums_ms. 64 blocks leave most SMs idle; the block-per-row and CUB variants fill them.",
       "a = ones with column 3 set to 9 as in the seed; the row_sums half (one thread per row) and the block-per-row "
       "and CUB variants run beside it, cpu-serial only on the CPU (the 2 s budget of a 1 GiB matrix).",
       req("row_col_sums", "16384", "f32", "256", "64", "cpu-serial,cuda-thread-per-line,cuda-block-reduce,cuda-cub-segmented",
           {{"input", "seed-cols"}})},
      {"es-matrix-add-2d", kChapterMemory, "matrix_add[(64, 64), (32, 32)]: coalesced against uncoalesced",
       {kEs, kEsName, "Matrices — matrix_add(a, b, out, coalesced)", 670},
       "The same additions and launch; out[x][y] is several times slower than out[y][x].",
       "The seed's cell leaves the sizes to the DLI notebook it follows: a = b = arange(2048 * 2048) float32 as "
       "2048 x 2048.",
       req("matrix_add_2d", "2048", "f32", "32x32", "64x64", "all", {{"input", "arange"}})},
      {"es-swap-with-shared", kChapterMemory, "swap_with_shared[1, 4]: four threads swap through shared memory",
       {kEs, kEsName, "Memoria compartida — swap_with_shared(vector, swapped)", 698},
       "[0, 1, 2, 3] comes out [3, 2, 1, 0]: each thread reads the element another thread put in shared memory, "
       "which is safe only after __syncthreads().",
       "The seed's cell exactly (4 int32, one block of 4); the variant without the barrier runs beside it and is "
       "usually right at this size (one warp): raise --param segment and --n to see it fail.",
       req("swap_with_shared", "4", "i32", "4", "1", "all", {})},
      {"es-tile-transpose", kChapterMemory, "tile_transpose[(128, 128), (32, 32)] on a 4096 x 4096 arange",
       {kEs, kEsName, "Memoria compartida — tile_transpose(a, transposed)", 726},
       "The shared tile makes both sides coalesced; the padded tile removes the 32-way bank conflict.",
       "Sizes from the DLI notebook the seed follows (4096 x 4096 float32 arange); the naive and padded kernels run "
       "beside the seed's tile with the same launch.",
       req("transpose", "4096", "f32", "32x32", "128x128", "cpu-serial,cuda-naive,cuda-tile,cuda-tile-padded",
           {{"input", "arange"}})},
  };
}

/// File 003's streams and events (issue 12): the seed's event-timed sequence, then the same work on k streams.
std::vector<CourseExperiment> streamsAndEvents() {
  return {
      {"s3-streams-events", kChapterStreams,
       "increment_kernel[32768, 512] on 16 Mi pinned int32, timed with events while the CPU polls",
       {kS3, kS3Name, "Data movement with streams, and timing with events (start.record ... stop.record)", 230},
       "cuda-seed's copy back has no stream, so it is synchronous: poll_count stays near 0 and cpu_api_ms is about "
       "event_ms. cuda-async puts it on the stream: the calls return at once and the CPU polls thousands of times. "
       "Pageable synchronous copies are slower.",
       "The seed's cell is cuda-seed (also in the timeline: one stream, three bars); cuda-async and "
       "cuda-pageable-sync run beside it, and every repetition starts again from a = 0 (the seed runs once).",
       req("streams_overlap", "16777216", "i32", "512", "32768", "cpu-serial,cuda-seed,cuda-async,cuda-pageable-sync",
           {{"v", "26"}})},
      {"s3-streams-overlap", kChapterStreams,
       "The same increment in 16 chunks over 4 streams: copies up, kernels and copies back overlap",
       {kS3, kS3Name, "Data movement with streams, and timing with events (copy_to_device on a stream)", 231},
       "The timeline shows chunks of different streams copying up, computing and copying back at once: the wall "
       "time nears the busiest engine's (overlap_fraction near 1) and beats the single-stream sequences.",
       "The seed uses one stream; this is the CUDA C++ pattern its cell points to (\"differs from CUDA C++ "
       "example\"): the pinned array cut into --param chunks dealt to --param streams streams, each chunk's grid "
       "ceil(chunk / 512).",
       req("streams_overlap", "16777216", "i32", "512", "auto",
           "cpu-serial,cuda-seed,cuda-async,cuda-pageable-sync,cuda-streams",
           {{"v", "26"}, {"streams", "4"}, {"chunks", "16"}})},
  };
}

/// Every part, in the seed files' order and, within a file, by line (each part is written where it is easiest to
/// read; the order is restored here).
std::vector<CourseExperiment> buildCatalogue() {
  std::vector<CourseExperiment> all = tp31();
  for (auto part : {tp32(), otherNotebooks(), memoryChapter(), streamsAndEvents()})
    all.insert(all.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  std::stable_sort(all.begin(), all.end(), [](const CourseExperiment& a, const CourseExperiment& b) {
    return a.seed.file != b.seed.file ? a.seed.file < b.seed.file : a.seed.line < b.seed.line;
  });
  return all;
}

}  // namespace

const std::vector<CourseExperiment>& courseExperiments() {
  static const std::vector<CourseExperiment> all = buildCatalogue();
  return all;
}

const CourseExperiment* findCourseExperiment(std::string_view id) {
  const auto& all = courseExperiments();
  auto it = std::find_if(all.begin(), all.end(), [&](const CourseExperiment& e) { return e.id == id; });
  return it == all.end() ? nullptr : &*it;
}

std::string unknownCourseMessage(std::string_view id) {
  return "unknown course experiment '" + std::string(id) + "' (see 'launchlab-cli course')";
}

}  // namespace launchlab
