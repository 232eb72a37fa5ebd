# Kiln's product rendering script. Run by the worker as
#   blender -b SETUP.blend --python render.py -- \
#     MODEL.glb OUT W H SAMPLES TRANSPARENT YAW PITCH DISTANCE FORMAT
# (TRANSPARENT 0 or 1; YAW and PITCH in degrees; DISTANCE 0 frames the
# model; FORMAT PNG or JPEG). It imports the product into the setup's
# scene, frames the camera on the model's bounding box, renders with
# Cycles on the CPU and writes OUT. Any failure exits non-zero with a
# message starting "kiln render.py:" on stderr, which the worker reports.
import math
import sys

# Debian's numpy 1.24 dropped the numpy.bool alias that Blender 3.4's glTF
# importer still uses; restore it before the importer loads.
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402


def fail(msg):
    print("kiln render.py: " + msg, file=sys.stderr)
    sys.stderr.flush()
    sys.exit(2)


def args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(argv) != 10:
        fail("usage: -- MODEL.glb OUT W H SAMPLES TRANSPARENT YAW PITCH DISTANCE FORMAT")
    model, out, w, h, samples, transparent, yaw, pitch, distance, fmt = argv
    if fmt not in ("PNG", "JPEG"):
        fail("format %r is not PNG or JPEG" % fmt)
    return model, out, int(w), int(h), int(samples), transparent == "1", float(yaw), float(pitch), float(distance), fmt


def main():
    model, out, w, h, samples, transparent, yaw, pitch, distance, fmt = args()
    scene = bpy.context.scene
    before = set(bpy.data.objects)
    try:
        bpy.ops.import_scene.gltf(filepath=model)
    except Exception as e:  # noqa: BLE001 - the importer raises many kinds
        fail("cannot import %s: %s" % (model, e))
    meshes = [o for o in set(bpy.data.objects) - before if o.type == "MESH"]
    if not meshes:
        fail("the model has no meshes")
    bpy.context.view_layer.update()

    lo = Vector((math.inf,) * 3)
    hi = Vector((-math.inf,) * 3)
    for o in meshes:
        for c in o.bound_box:
            p = o.matrix_world @ Vector(c)
            lo = Vector(map(min, lo, p))
            hi = Vector(map(max, hi, p))
    size = hi - lo
    radius = max(size.length / 2, 1e-6)

    # Stand the product on the backdrop's floor (z = 0) at the origin, and
    # scale the setup's backdrop and lights, made for a 1 m product, to it.
    roots = [o for o in set(bpy.data.objects) - before if o.parent is None]
    shift = Vector((-(lo.x + hi.x) / 2, -(lo.y + hi.y) / 2, -lo.z))
    for o in roots:
        o.location += shift
    center = Vector((0, 0, size.z / 2))
    scale = max(radius, 0.05) / 0.5
    for o in scene.objects:
        if o.name.startswith("KilnBackdrop"):
            o.scale *= scale
            # A transparent rendering is the product alone: the backdrop
            # only catches its shadow, and is see-through elsewhere.
            o.is_shadow_catcher = transparent
        elif o.name.startswith("Kiln") and o.type == "LIGHT":
            o.location *= scale
            o.data.energy *= scale * scale

    cam = scene.camera
    if cam is None:
        cam_data = bpy.data.cameras.new("KilnCamera")
        cam = bpy.data.objects.new("KilnCamera", cam_data)
        scene.collection.objects.link(cam)
        scene.camera = cam
    scene.render.resolution_x = w
    scene.render.resolution_y = h
    scene.render.resolution_percentage = 100
    # With the default sensor fit the camera's angle spans the longer side;
    # the shorter side's field of view decides how far away the whole
    # bounding sphere fits, with a margin.
    fit = 2 * math.atan(math.tan(cam.data.angle / 2) * min(w, h) / max(w, h))
    if distance <= 0:
        distance = radius / math.sin(fit / 2) * 1.1
    cam.data.clip_start = distance / 1000
    cam.data.clip_end = distance * 100
    y, p = math.radians(yaw), math.radians(pitch)
    # Yaw 0 looks at the product's front (glTF +z, Blender -y) from -y.
    offset = Vector((math.sin(y) * math.cos(p), -math.cos(y) * math.cos(p), math.sin(p))) * distance
    cam.location = center + offset
    cam.rotation_euler = (center - cam.location).to_track_quat("-Z", "Y").to_euler()

    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    # Debian's Blender has no OpenImageDenoise: denoising fails the render.
    scene.cycles.use_denoising = False
    scene.render.film_transparent = transparent
    settings = scene.render.image_settings
    settings.file_format = fmt
    if fmt == "PNG":
        settings.color_mode = "RGBA" if transparent else "RGB"
        settings.color_depth = "8"
    else:
        settings.color_mode = "RGB"
        settings.quality = 90
    scene.render.filepath = out
    scene.render.use_file_extension = False
    bpy.ops.render.render(write_still=True)


try:
    main()
except SystemExit:
    raise
except Exception as e:  # noqa: BLE001 - report any failure as a clear message
    fail("%s: %s" % (type(e).__name__, e))
