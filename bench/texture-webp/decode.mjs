// Decodes each image file given (JPEG, PNG) with sharp, that is
// libjpeg-turbo for JPEG as glTF-Transform reads it, into a PNG beside
// it (name.img -> name.png): main.go's second SSIM reference.
// sharp is installed with @gltf-transform/cli, which depends on it.
import sharp from 'sharp';

for (const f of process.argv.slice(2)) {
	await sharp(f).png({ compressionLevel: 1 }).toFile(f.replace(/\.img$/, '.png'));
}
