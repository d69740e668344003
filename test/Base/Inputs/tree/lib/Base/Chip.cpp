static const char *kName = "gfx950"; // the table itself: not scanned
