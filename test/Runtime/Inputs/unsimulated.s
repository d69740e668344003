// Two instructions no part of the ISA simulator runs, between two it runs:
// a global wave sync (GDS) and a typed buffer load, both excluded from the
// coverage (docs/isa-simulator.md, "Coverage").
s_mov_b32 s0, 1
ds_gws_init v0 gds
tbuffer_load_format_x v0, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]
s_endpgm
