# gfx942 gfx950 in a comment
CHIPS=(gfx942 gfx950)
