# Installation in the standard places (GNUInstallDirs) and the Debian package (CPack DEB).
#   cmake --install build [--prefix DIR]     bin/launchlab, bin/launchlab-cli, the desktop entry, icon, AppStream
#                                            metainfo and the CLI's man page
#   (cd build && cpack -G DEB)               build/launchlab_<version>_<arch>.deb
# Executables add their own install(TARGETS … DESTINATION ${CMAKE_INSTALL_BINDIR}) rules (app/CMakeLists.txt).
set(_linux ${PROJECT_SOURCE_DIR}/resources/linux)
set(LAUNCHLAB_APP_ID org.launchlab.launchlab)

install(FILES ${_linux}/launchlab-cli.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# The Numba compile helper, for running by hand (the programs carry their own copy: launchlab/numba/numba.h).
install(FILES ${PROJECT_SOURCE_DIR}/resources/python/launchlab_numba.py DESTINATION ${CMAKE_INSTALL_DATADIR}/launchlab/python)
if(LAUNCHLAB_HAVE_GUI)
  install(FILES ${_linux}/${LAUNCHLAB_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${_linux}/${LAUNCHLAB_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/launchlab.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# The .deb: its Depends are computed by dpkg-shlibdeps (package dpkg-dev) from the libraries the installed
# executables link. The CUDA runtime is linked statically (CUDA::cudart_static) and finds the driver's libcuda.so.1
# with dlopen, and cuBLAS is dlopened by matmul, so no CUDA package is needed: a CUDA build needs only the NVIDIA
# driver at run time, and without it the CUDA implementations are skipped with the reason.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME launchlab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CUDA launch-configuration laboratory for a GPU course")
set(CPACK_PACKAGE_CONTACT "LaunchLab maintainers <maintainers@users.noreply.a-seed-70b92214.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Run, tune, measure and verify the experiments of a CUDA course: a Qt 6 window (launchlab) and a command-line
 tool (launchlab-cli) over one engine that times CUDA and CPU implementations and verifies them against each other.
 Without an NVIDIA GPU and driver the CUDA implementations are skipped with the reason.
 .
 Kernels written in Numba (.py files, the course's own language) are compiled by a Python with numba-cuda, which
 Debian does not package: python3 -m pip install numba-cuda==0.30.4 numba==0.68.1 (in a virtual environment,
 named with --python or LAUNCHLAB_PYTHON). Without it a .py kernel gets one line saying so; the rest works.")
# Kernels written in Numba (.py) need a Python with numba-cuda (pip: numba-cuda, not packaged by Debian): the
# Python and the tools to install it there are recommended, and the description says how.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-venv, python3-pip")
set(CPACK_STRIP_FILES ON)
include(CPack)
