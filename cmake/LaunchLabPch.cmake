# Precompiled headers, for build time only: CI builds every configuration from scratch on 2 cores, and most of a
# file's compile time here is parsing the same large headers again (Qt + QCustomPlot in ui/, GoogleTest in tests/).
# `-DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON` builds without them (the sources include what they use either way).
#
# launchlab_shared_pch(<target> <group> <header>...): the first target of <group> precompiles <header>...; every later
# target of the group reuses that precompiled header instead of building its own. GCC uses a precompiled header only
# where the flags it checks (-fPIC/-fPIE, -O, sanitizers) are the same and every macro defined on the owner's
# command line is defined alike (a later target may define more): so the owner is the group's plainest target, and
# a refused header only costs time (the compiler parses the headers instead and -Winvalid-pch says so).
function(launchlab_shared_pch target group)
  get_property(_owner GLOBAL PROPERTY LAUNCHLAB_PCH_OWNER_${group})
  if(_owner)
    target_precompile_headers(${target} REUSE_FROM ${_owner})
  else()
    target_precompile_headers(${target} PRIVATE ${ARGN})
    set_property(GLOBAL PROPERTY LAUNCHLAB_PCH_OWNER_${group} ${target})
  endif()
endfunction()
