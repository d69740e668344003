//===- StaleHandleTest.cpp - freed hkrt handles never come back -----------===//
//
// A freed buffer or closed device stays stale however many objects are
// made after it, also when the new object's memory is where the old one's
// was: handles are tokens that are never reused, not addresses.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/hkrt.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

TEST(StaleHandles, FreedBufferStaysStale) {
  hkrt_device dev = nullptr;
  ASSERT_EQ(hkrt_device_open_isa("gfx942", &dev), HKRT_SUCCESS);
  hkrt_buffer freed = nullptr;
  ASSERT_EQ(hkrt_buffer_alloc(dev, 256, &freed), HKRT_SUCCESS);
  ASSERT_EQ(hkrt_buffer_free(freed), HKRT_SUCCESS);
  // Buffers of the same size, one at a time: the allocator gives the freed
  // memory back, and the handles still differ.
  for (int i = 0; i < 64; ++i) {
    hkrt_buffer b = nullptr;
    ASSERT_EQ(hkrt_buffer_alloc(dev, 256, &b), HKRT_SUCCESS);
    EXPECT_NE(b, freed);
    EXPECT_EQ(hkrt_buffer_size(freed), 0u);
    EXPECT_EQ(hkrt_buffer_free(b), HKRT_SUCCESS);
  }
  EXPECT_EQ(hkrt_buffer_free(freed), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(), "unknown or already freed buffer handle");
  EXPECT_EQ(hkrt_device_close(dev), HKRT_SUCCESS);
}

TEST(StaleHandles, ClosedDeviceStaysStale) {
  hkrt_device closed = nullptr;
  ASSERT_EQ(hkrt_device_open_isa("gfx950", &closed), HKRT_SUCCESS);
  ASSERT_EQ(hkrt_device_close(closed), HKRT_SUCCESS);
  std::vector<hkrt_device> later(8);
  for (hkrt_device &d : later) {
    ASSERT_EQ(hkrt_device_open_isa("gfx950", &d), HKRT_SUCCESS);
    EXPECT_NE(d, closed);
  }
  EXPECT_EQ(hkrt_device_close(closed), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(), "unknown or already closed device handle");
  EXPECT_STREQ(hkrt_device_chip(closed), "");
  for (hkrt_device d : later)
    EXPECT_EQ(hkrt_device_close(d), HKRT_SUCCESS);
}
