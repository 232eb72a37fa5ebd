package assets

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/obj"
	"github.com/kilnhq/kiln/assets/scene"
)

// Extensions lists the upload extensions that become a GLB.
var Extensions = []string{"glb", "gltf", "obj"}

// maxZipFiles bounds the entries of an uploaded set.
const maxZipFiles = 1000

// ReadUpload reads an uploaded model of extension ext (glb, gltf or obj).
// A model of several files (a .gltf with its .bin and textures, an .obj
// with its .mtl and textures) is uploaded as one ZIP archive holding them
// with their relative paths; the model is the one file of extension ext.
func ReadUpload(data []byte, ext string) (*scene.Scene, error) {
	return ReadUploadContext(context.Background(), data, ext)
}

// ReadUploadContext is ReadUpload that stops when ctx ends, with an error
// wrapping ctx.Err() rather than one that blames the file.
func ReadUploadContext(ctx context.Context, data []byte, ext string) (*scene.Scene, error) {
	main, files := data, noFiles
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		var err error
		if main, files, err = unzip(data, ext); err != nil {
			return nil, err
		}
	}
	switch ext {
	case "obj":
		if len(main) > MaxModelBytes {
			return nil, tooLarge(len(main))
		}
		return obj.ReadContext(ctx, main, files)
	case "glb", "gltf":
		if len(main) == 0 {
			return nil, unprocessable("not a valid GLB or glTF file: the file is empty")
		}
		if len(main) > MaxModelBytes {
			return nil, tooLarge(len(main))
		}
		s, err := scene.ReadContext(ctx, main, scene.ReadOptions{Files: files})
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		if err != nil {
			_, msg := kiln.CodeOf(err)
			return nil, unprocessable("not a valid GLB or glTF file: %s", msg)
		}
		return s, nil
	}
	return nil, kiln.Errorf(kiln.KindUnprocessable, "unsupported_extension",
		"files of extension %q are stored but not processed; upload %s", ext, strings.Join(Extensions, ", "))
}

func unprocessable(format string, args ...any) error {
	return kiln.Errorf(kiln.KindUnprocessable, "invalid_model", format, args...)
}

func tooLarge(n int) error {
	return kiln.Errorf(kiln.KindUnprocessable, "file_too_large", "the model is %d bytes; at most %d can be processed", n, MaxModelBytes)
}

func noFiles(name string) ([]byte, error) {
	return nil, unprocessable("the model refers to %q, which was not uploaded with it; upload the files together as a ZIP", name)
}

// unzip finds the model in an uploaded archive and serves the other files
// by their path relative to it. Sizes are checked against what the
// entries declare and what they inflate to, so a ZIP bomb stops at the
// limit.
func unzip(data []byte, ext string) ([]byte, func(string) ([]byte, error), error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, unprocessable("the upload looks like a ZIP archive but cannot be read: %v", err)
	}
	if len(zr.File) > maxZipFiles {
		return nil, nil, unprocessable("the archive holds %d files; at most %d are read", len(zr.File), maxZipFiles)
	}
	var model *zip.File
	byName := map[string]*zip.File{}
	var total uint64
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		name := path.Clean(f.Name)
		if strings.HasPrefix(name, "../") || path.IsAbs(name) {
			return nil, nil, unprocessable("the archive entry %q leaves the archive", f.Name)
		}
		total += f.UncompressedSize64
		if total > MaxModelBytes {
			return nil, nil, unprocessable("the archive inflates to more than %d bytes", MaxModelBytes)
		}
		byName[name] = f
		if strings.EqualFold(path.Ext(name), "."+ext) && !strings.HasPrefix(path.Base(name), ".") {
			if model != nil {
				return nil, nil, unprocessable("the archive holds more than one .%s file (%s and %s)", ext, model.Name, f.Name)
			}
			model = f
		}
	}
	if model == nil {
		return nil, nil, unprocessable("the archive holds no .%s file", ext)
	}
	read := func(f *zip.File) ([]byte, error) {
		rc, err := f.Open()
		if err != nil {
			return nil, unprocessable("the archive entry %q cannot be read: %v", f.Name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
		if err != nil || uint64(len(b)) != f.UncompressedSize64 {
			return nil, unprocessable("the archive entry %q is corrupt", f.Name)
		}
		return b, nil
	}
	main, err := read(model)
	if err != nil {
		return nil, nil, err
	}
	dir := path.Dir(path.Clean(model.Name))
	// Each entry is inflated once, however many times and under however
	// many spellings the model names it: a file naming one large entry a
	// thousand times would otherwise inflate it a thousand times. The
	// same bytes come back each time, which lets a reader see that two
	// names are one file.
	inflated := map[*zip.File][]byte{}
	files := func(uri string) ([]byte, error) {
		name := path.Clean(path.Join(dir, strings.ReplaceAll(uri, "\\", "/")))
		f, ok := byName[name]
		if !ok {
			return noFiles(uri)
		}
		if b, ok := inflated[f]; ok {
			return b, nil
		}
		b, err := read(f)
		if err == nil {
			inflated[f] = b
		}
		return b, err
	}
	return main, files, nil
}
