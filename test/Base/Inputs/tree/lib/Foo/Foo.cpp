// A comment may say gfx950, 64 lanes and 64 KiB: not flagged.
/* Nor "gfx942" in a block comment. */
bool isNew(const std::string &chip) { return chip == "gfx950"; }
int lanes = 64;
int ldsBytes = 160 * 1024;
uint64_t mask = 64; // 64-bit masks and i64 are not the wave size
int bits = 64;      // nor a plain 64
