/* Forms of hkrt_device_kind the Python package's configure step reads. */
typedef enum hkrt_device_kind {
  HKRT_DEVICE_AUTO = 0, /* HIP if a GPU is usable, else the emulator */
  HKRT_DEVICE_HIP = 1,
  HKRT_DEVICE_EMULATOR = 2, /* a comment, with a comma */
  /* the ISA simulator: counted after EMULATOR */
  HKRT_DEVICE_ISA,
  HKRT_DEVICE_LATER = 7,
  HKRT_DEVICE_LAST
} hkrt_device_kind;
