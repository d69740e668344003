# cmake -DHEADER=... -DNAME=... -P enum-value.cmake: prints the value
# hk_enum_value finds for NAME in hkrt_device_kind.
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/HKEnumValue.cmake)
hk_enum_value(${HEADER} hkrt_device_kind ${NAME} value)
message("${NAME} = ${value}")
