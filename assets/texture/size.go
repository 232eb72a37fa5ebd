package texture

// Size reads an image's width and height from its header (PNG, JPEG or
// WebP) without decoding its pixels, so that a job can know what
// decoding will cost before it starts.
func Size(data []byte) (w, h int, err error) { return size(data) }
