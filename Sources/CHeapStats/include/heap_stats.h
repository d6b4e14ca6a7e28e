#include <stddef.h>
/// Bytes the allocator has handed out and not taken back (glibc: heap plus mmap'd blocks); 0 elsewhere.
size_t seatkit_heap_bytes_in_use(void);
