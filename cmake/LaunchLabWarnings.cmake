# Project-wide warning flags, applied per target with launchlab_warnings(target).
function(launchlab_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wundef -Wshadow=local -Wno-unknown-pragmas -Wno-missing-field-initializers>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wundef --Werror=all-warnings>)
endfunction()
