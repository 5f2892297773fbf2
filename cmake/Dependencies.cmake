# Finds the Debian libraries Tessera builds on and stops with a message that
# says which one is missing and how to install it (scripts/setup.sh does all).
find_package(Threads REQUIRED)

function(tessera_require_library target header lib package)
  find_path(${target}_INCLUDE_DIR ${header})
  find_library(${target}_LIBRARY ${lib})
  if(NOT ${target}_INCLUDE_DIR OR NOT ${target}_LIBRARY)
    message(FATAL_ERROR
      "Tessera needs ${package} (${header}, lib${lib}) and it was not found.\n"
      "Install it with:  sudo apt-get install -y ${package}\n"
      "or run scripts/setup.sh, which installs every dependency that is missing.")
  endif()
  add_library(Tessera::${target} UNKNOWN IMPORTED)
  set_target_properties(Tessera::${target} PROPERTIES
    IMPORTED_LOCATION "${${target}_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${${target}_INCLUDE_DIR}")
endfunction()

tessera_require_library(libev   ev.h      ev      libev-dev)
tessera_require_library(sqlite3 sqlite3.h sqlite3 libsqlite3-dev)
tessera_require_library(inih    ini.h     inih    libinih-dev)
tessera_require_library(cunit   CUnit/CUnit.h cunit libcunit1-dev)
tessera_require_library(nettle  nettle/sha2.h nettle nettle-dev)
# `tessera view` (analysis/view/): its HTTP server and its JSON
tessera_require_library(microhttpd microhttpd.h microhttpd libmicrohttpd-dev)
tessera_require_library(jansson jansson.h jansson libjansson-dev)
