// zlib for the /metrics gzip stream: raw deflate pieces that are compressed once and spliced per scrape.
#include <zlib.h>
