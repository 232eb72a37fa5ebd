# Renders an avatar GLB in Blender (Cycles, CPU, 24 samples, 384 px):
# the whole body and a head-and-shoulders portrait, the camera straight
# in front, for looking at Kiln's avatars beside the leader's.
#   blender -b --python blender.py -- MODEL.glb OUT_FULL.png OUT_PORTRAIT.png
import math, sys
import numpy
if not hasattr(numpy, "bool"):
    numpy.bool = bool
import bpy
from mathutils import Vector

model, full, port = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
bpy.ops.import_scene.gltf(filepath=model)
meshes = [o for o in bpy.data.objects if o.type == "MESH"]
bpy.context.view_layer.update()
lo = Vector((math.inf,) * 3); hi = Vector((-math.inf,) * 3)
for o in meshes:
    dg = bpy.context.evaluated_depsgraph_get()
    ev = o.evaluated_get(dg)
    for v in ev.to_mesh().vertices:
        p = o.matrix_world @ v.co
        lo = Vector(map(min, lo, p)); hi = Vector(map(max, hi, p))
scene.render.engine = "CYCLES"
scene.cycles.samples = 24
scene.cycles.use_denoising = False
scene.cycles.device = "CPU"
scene.render.resolution_x = scene.render.resolution_y = 384
scene.render.film_transparent = False
world = bpy.data.worlds.new("w"); scene.world = world
world.use_nodes = True
world.node_tree.nodes["Background"].inputs[0].default_value = (0.85, 0.85, 0.88, 1)
world.node_tree.nodes["Background"].inputs[1].default_value = 0.9
sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
sun.data.energy = 3.0
sun.rotation_euler = (math.radians(50), 0, math.radians(30))
scene.collection.objects.link(sun)
cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
scene.collection.objects.link(cam); scene.camera = cam
cam.data.lens = 50
def shoot(out, top, bottom):
    # glTF +Y up is Blender +Z; the avatar faces +Y in Blender (glTF +Z).
    h = top - bottom
    cz = (top + bottom) / 2
    cx = (lo.x + hi.x) / 2
    d = h / (2 * math.tan(cam.data.angle / 2)) * 1.15
    cam.location = (cx, lo.y - d, cz)
    cam.rotation_euler = (math.radians(90), 0, 0)
    scene.render.filepath = out
    bpy.ops.render.render(write_still=True)
shoot(full, hi.z, lo.z)
shoot(port, hi.z + 0.03, hi.z - 0.55)
