# fn_nested_build(<subdir> <switch>): build this source tree as a second, nested CMake
# project in ${CMAKE_CURRENT_BINARY_DIR}/<subdir>, configured with -D<switch>=ON, and
# install what it installs.
#
# Why: pip builds every `pip install .` in a new temporary environment, and
# scikit-build-core then deletes CMakeCache.txt and CMakeFiles/ of its build directory
# (a cache that names the old environment's paths would be stale). With Ninja every
# object file lives under CMakeFiles/<target>.dir, so each install compiled everything
# again. The nested project's CMakeFiles/ are not the ones deleted: its objects, its
# .ninja_log and .ninja_deps survive, and Ninja compiles only what changed (a source, a
# header it includes, or the command line). The nested build names no path of the
# temporary environment in any command (see CMakeLists.txt), so a new environment
# changes no command line.
#
# The outer project (LANGUAGES NONE: no compiler of its own) only
#   - configures the nested one, on every configure of its own, passing on every cache
#     entry given on its command line or in an initial cache file (scikit-build-core's
#     -C and -D, the user's CMAKE_ARGS and cmake.define) and dropping (-U) those that
#     were passed last time and are not now, so the nested cache never keeps a setting
#     the outer build no longer asks for;
#   - builds it (target fn_nested_build, always run; Ninja decides what is out of date);
#   - installs it (cmake --install of the nested build into the outer's prefix).
# Call it right after project(... LANGUAGES NONE), before anything else sets the cache.

function(fn_nested_build subdir switch)
  set(inner ${CMAKE_CURRENT_BINARY_DIR}/${subdir})
  file(MAKE_DIRECTORY ${inner})

  # the cache entries given to this configure: from -D (help text set by CMake) or from
  # an initial cache file that sets no help text (what scikit-build-core writes)
  get_cmake_property(entries CACHE_VARIABLES)
  set(init "# written by cmake/NestedBuild.cmake on each configure\n")
  set(passed "")
  foreach(name IN LISTS entries)
    get_property(type CACHE ${name} PROPERTY TYPE)
    get_property(help CACHE ${name} PROPERTY HELPSTRING)
    if(type STREQUAL "INTERNAL" OR type STREQUAL "STATIC")
      continue()
    endif()
    if(NOT (help STREQUAL "" OR help STREQUAL "No help, variable specified on the command line."))
      continue()
    endif()
    if(name MATCHES "^(CMAKE_INSTALL_PREFIX|CMAKE_CACHEFILE_DIR|${switch})$")
      continue()
    endif()
    if(type STREQUAL "UNINITIALIZED")
      set(type STRING)
    endif()
    get_property(value CACHE ${name} PROPERTY VALUE)
    set(used "${${name}}") # read, so CMake does not call a -D given here unused
    string(APPEND init "set(${name} [==[${value}]==] CACHE ${type} \"\" FORCE)\n")
    list(APPEND passed ${name})
  endforeach()
  string(APPEND init "set(${switch} ON CACHE BOOL \"\" FORCE)\n")
  file(CONFIGURE OUTPUT ${inner}/outer-cache.cmake CONTENT "${init}" @ONLY)

  # what the last configure passed, and is not passed now, goes back to its default
  set(unset_args "")
  set(record ${inner}/outer-cache-names.txt)
  if(EXISTS ${record})
    file(STRINGS ${record} before)
    foreach(name IN LISTS before)
      if(name AND NOT name IN_LIST passed)
        list(APPEND unset_args "-U${name}")
      endif()
    endforeach()
  endif()

  # A nested build made by another generator or from another source tree cannot be
  # reconfigured: start it afresh (what scikit-build-core does for the outer one).
  if(EXISTS ${inner}/CMakeCache.txt)
    load_cache(${inner} READ_WITH_PREFIX old_ CMAKE_GENERATOR CMAKE_HOME_DIRECTORY)
    if(NOT old_CMAKE_GENERATOR STREQUAL CMAKE_GENERATOR
       OR NOT old_CMAKE_HOME_DIRECTORY STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      message(STATUS "nested build ${inner}: generator or source changed, starting afresh")
      file(REMOVE ${inner}/CMakeCache.txt)
      file(REMOVE_RECURSE ${inner}/CMakeFiles)
    endif()
  endif()

  set(generator_args -G "${CMAKE_GENERATOR}")
  if(CMAKE_GENERATOR_PLATFORM)
    list(APPEND generator_args -A "${CMAKE_GENERATOR_PLATFORM}")
  endif()
  if(CMAKE_GENERATOR_TOOLSET)
    list(APPEND generator_args -T "${CMAKE_GENERATOR_TOOLSET}")
  endif()
  if(CMAKE_MAKE_PROGRAM)
    list(APPEND generator_args "-DCMAKE_MAKE_PROGRAM:FILEPATH=${CMAKE_MAKE_PROGRAM}")
  endif()

  message(STATUS "Configuring the nested build in ${inner}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" ${generator_args} -C ${inner}/outer-cache.cmake ${unset_args}
            -S ${CMAKE_CURRENT_SOURCE_DIR} -B ${inner}
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "configuring the nested build in ${inner} failed (${status})")
  endif()
  string(REPLACE ";" "\n" names "${passed}")
  file(CONFIGURE OUTPUT ${record} CONTENT "${names}\n" @ONLY)

  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(config_args "")
  if(multi_config)
    set(config_args --config $<CONFIG>)
  endif()
  add_custom_target(fn_nested_build ALL
    COMMAND "${CMAKE_COMMAND}" --build ${inner} ${config_args}
    COMMENT "Building the nested build in ${inner}"
    USES_TERMINAL VERBATIM)

  # at install time: the nested build's install rules, into this install's prefix
  # (DESTDIR is in the environment and applies as it is); --strip when asked for
  install(CODE "
    set(args --install \"${inner}\" --prefix \"\${CMAKE_INSTALL_PREFIX}\")
    if(CMAKE_INSTALL_CONFIG_NAME)
      list(APPEND args --config \"\${CMAKE_INSTALL_CONFIG_NAME}\")
    endif()
    if(CMAKE_INSTALL_DO_STRIP)
      list(APPEND args --strip)
    endif()
    if(CMAKE_INSTALL_COMPONENT)
      list(APPEND args --component \"\${CMAKE_INSTALL_COMPONENT}\")
    endif()
    execute_process(COMMAND \"${CMAKE_COMMAND}\" \${args} RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR \"installing the nested build ${inner} failed (\${status})\")
    endif()
  ")
endfunction()
