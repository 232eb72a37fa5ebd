# Renders avatars side by side, front view, for looking at the generator's
# output (a dev tool, not a test). Usage:
#   blender -b --python render.py -- OUT.png [--side] A.glb B.glb ...
# Generate GLBs with: KILN_AVATAR_OUT=/tmp/av go test -run TestGenerate ./assets/avatar/
import sys

import numpy
numpy.bool = bool  # Debian's numpy lacks the alias Blender 3.4's importer uses

import bpy
import math

args = sys.argv[sys.argv.index("--") + 1:]
out = args.pop(0)
side = False
portrait = False
while args and args[0].startswith("--"):
    flag = args.pop(0)
    side = side or flag == "--side"
    portrait = portrait or flag == "--portrait"

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
spacing = 0.4 if portrait else 0.8
for i, path in enumerate(args):
    before = set(bpy.data.objects)
    bpy.ops.import_scene.gltf(filepath=path)
    for ob in set(bpy.data.objects) - before:
        if ob.parent is None:
            ob.location.x += (i - (len(args) - 1) / 2) * spacing

cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
scene.collection.objects.link(cam)
cam.data.type = "ORTHO"
n = max(1, len(args))
if portrait:
    cam.data.ortho_scale = 0.4 * n
    height = 1.62
    scene.render.resolution_x, scene.render.resolution_y = 512 * n, 512
else:
    # 2.1 m tall, one avatar per 0.8 m across.
    cam.data.ortho_scale = max(2.1, spacing * n)
    height = 1.0
    scene.render.resolution_x = int(512 * spacing * n / 2.1)
    scene.render.resolution_y = 512
if side:
    cam.location = (4, 0, height)
    cam.rotation_euler = (math.pi / 2, 0, math.pi / 2)
else:
    cam.location = (0, -4, height)  # glTF +Z forward is Blender -Y
    cam.rotation_euler = (math.pi / 2, 0, 0)
scene.camera = cam

sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
sun.data.energy = 3.5
sun.rotation_euler = (math.radians(50), math.radians(15), math.radians(-30))
scene.collection.objects.link(sun)
world = bpy.data.worlds.new("w")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs[0].default_value = (0.55, 0.58, 0.62, 1)
world.node_tree.nodes["Background"].inputs[1].default_value = 0.8
scene.world = world

scene.render.engine = "CYCLES"
scene.cycles.samples = 24
scene.cycles.use_denoising = False
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
