# LAUNCHLAB_FUZZ=ON: every target is instrumented for libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer
# (findings fatal), and tests/fuzz adds one fuzzer executable per untrusted-input reader. Clang only.
if(LAUNCHLAB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "LAUNCHLAB_FUZZ=ON needs clang (libFuzzer), e.g. -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
