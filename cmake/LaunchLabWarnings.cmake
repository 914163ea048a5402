# Project-wide warning flags, applied per target with launchlab_warnings(target).
# GCC 12 at -O3 reports a false -Wrestrict inside libstdc++ for "literal" + std::string (GCC bug 105329).
set(LAUNCHLAB_GCC12_WORKAROUND "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12 AND
   CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  set(LAUNCHLAB_GCC12_WORKAROUND -Wno-restrict)
endif()

# LAUNCHLAB_WERROR turns C++ warnings into errors (CI sets it through scripts/setup.sh): a warning that lands is one
# nobody reads again. Off by default, so a newer compiler's new warning never stops a student's build.
option(LAUNCHLAB_WERROR "Treat C++ warnings as errors" OFF)

function(launchlab_warnings target)
  if(LAUNCHLAB_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wundef $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local> -Wno-unknown-pragmas -Wno-missing-field-initializers ${LAUNCHLAB_GCC12_WORKAROUND}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wundef --Werror=all-warnings>)
endfunction()
