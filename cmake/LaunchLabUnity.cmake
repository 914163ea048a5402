# Unity builds, for build time only: CI builds every configuration from scratch on 2 cores, and the files of a target
# each instantiate the same GoogleTest, standard-library, JSON, CLI11 and Qt templates again (the precompiled header
# saves the parsing, not that). The test suites, core, the CLI and the window's rooms use it (launchlab_core and
# launchlab-cli: 472 → 268 CPU s from scratch, Release, on the build machine). With -DLAUNCHLAB_UNITY_BUILD=ON (CI's scripts set it) launchlab_unity(<target>) compiles the
# target's sources LAUNCHLAB_UNITY_BATCH at a time, each batch as one translation unit. Off by default: a batch
# recompiles whenever one of its files changes, which a developer's incremental build would feel.
#
# A batch is one file, so names at file scope must differ between the files of a target: two files that need the same
# helper share it (tests/helpers/), and an anonymous namespace's names are still distinct per file only without unity.
# A source with its own COMPILE_DEFINITIONS, COMPILE_OPTIONS or SKIP_UNITY_BUILD_INCLUSION is compiled alone.
# GCC 12 inlines more across a batch and then warns falsely inside libstdc++'s std::string (-Wstringop-overflow and
# -Warray-bounds, GCC bugs 105329, 105651, 106199; an error under CI's -Werror), where it did not for the file alone,
# and which batch shows it changes as files come and go: so those two are off in a batch under GCC before 13 (a real
# overflow in a test is still ASan's to find at run time, and the file alone still warns in an ordinary build).
option(LAUNCHLAB_UNITY_BUILD "Compile core's, the CLI's, the window's and the suites' sources in batches (CI)" OFF)
set(LAUNCHLAB_UNITY_BATCH 8 CACHE STRING "Sources per batch of a unity build (LAUNCHLAB_UNITY_BUILD)")

function(launchlab_unity target)
  if(LAUNCHLAB_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${LAUNCHLAB_UNITY_BATCH})
    # GCC warns of a type from an anonymous namespace used as a base in a header, taking each file a batch includes
    # for one: a test fixture in an anonymous namespace is right in a .cpp, which each of these is.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      target_compile_options(${target} PRIVATE -Wno-stringop-overflow -Wno-array-bounds)
    endif()
  endif()
endfunction()
