# Kiln's built-in studio setups for product renderings. Run by the worker
# the first time a setup is used, as
#   blender -b --factory-startup --python make_setups.py -- SETUP_ID OUT.blend
# It builds a scene with a backdrop (a floor curving up into a wall behind
# the product), studio lights and a camera, and saves it; render.py imports
# the product into it. The setups are generated instead of committed as
# binaries, and cached in blob storage by the worker.
import math
import sys

import bpy

# Backdrop colour (linear RGB), world colour and light strengths per setup.
SETUPS = {
    "studio-white": {"backdrop": (0.8, 0.8, 0.8), "world": (0.6, 0.6, 0.62), "key": 600.0, "fill": 200.0, "tint": (1.0, 1.0, 1.0)},
    "studio-dark": {"backdrop": (0.02, 0.02, 0.025), "world": (0.03, 0.03, 0.035), "key": 700.0, "fill": 120.0, "tint": (0.9, 0.95, 1.0)},
    "studio-warm": {"backdrop": (0.6, 0.45, 0.3), "world": (0.5, 0.4, 0.3), "key": 600.0, "fill": 180.0, "tint": (1.0, 0.85, 0.7)},
}


def fail(msg):
    print("kiln make_setups.py: " + msg, file=sys.stderr)
    sys.exit(2)


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(argv) != 2:
        fail("usage: -- SETUP_ID OUT.blend")
    setup_id, out = argv
    if setup_id not in SETUPS:
        fail("unknown setup %r; known: %s" % (setup_id, ", ".join(sorted(SETUPS))))
    s = SETUPS[setup_id]

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.use_denoising = False

    world = bpy.data.worlds.new("KilnWorld")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs[0].default_value = (*s["world"], 1.0)
    world.node_tree.nodes["Background"].inputs[1].default_value = 0.6
    scene.world = world

    # Backdrop: a floor at z=0 that bends up into a wall far behind the
    # product (the camera looks along -y by default), so the horizon never
    # shows. render.py scales the scene's "KilnBackdrop" to the product.
    bpy.ops.mesh.primitive_plane_add(size=2.0, location=(0, 0, 0))
    floor = bpy.context.active_object
    floor.name = "KilnBackdrop"
    mesh = floor.data
    import bmesh
    bm = bmesh.new()
    bm.from_mesh(mesh)
    bmesh.ops.subdivide_edges(bm, edges=bm.edges[:], cuts=0)
    # Extrude the back edge upwards in a few steps for a rounded cove.
    back = [e for e in bm.edges if all(v.co.y > 0.99 for v in e.verts)]
    edge = back[0]
    for i in range(1, 9):
        a = math.radians(90.0 * i / 8)
        ret = bmesh.ops.extrude_edge_only(bm, edges=[edge])
        verts = [v for v in ret["geom"] if isinstance(v, bmesh.types.BMVert)]
        for v in verts:
            v.co.y = 1.0 + 0.5 * math.sin(a)
            v.co.z = 0.5 * (1 - math.cos(a))
        edge = [e for e in ret["geom"] if isinstance(e, bmesh.types.BMEdge)][0]
    ret = bmesh.ops.extrude_edge_only(bm, edges=[edge])
    for v in [v for v in ret["geom"] if isinstance(v, bmesh.types.BMVert)]:
        v.co.z = 3.0
    # The floor reaches further towards the camera too.
    front = [v for v in bm.verts if v.co.y < -0.99]
    for v in front:
        v.co.y = -3.0
    bm.to_mesh(mesh)
    bm.free()
    for p in mesh.polygons:
        p.use_smooth = True
    mat = bpy.data.materials.new("KilnBackdrop")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*s["backdrop"], 1.0)
    bsdf.inputs["Roughness"].default_value = 0.9
    mesh.materials.append(mat)
    # Wide enough that a camera turned by yaw still sees backdrop only.
    floor.scale = (12.0, 4.0, 4.0)

    def area(name, loc, power, size):
        light = bpy.data.lights.new(name, type="AREA")
        light.energy = power
        light.size = size
        light.color = s["tint"]
        obj = bpy.data.objects.new(name, light)
        obj.location = loc
        scene.collection.objects.link(obj)
        # Point the light at the origin.
        direction = -obj.location.normalized()
        obj.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()
        return obj

    # Soft key from the front left and above, fill from the front right.
    # render.py scales the "Kiln" lights' distances and power to the product.
    area("KilnKey", (-3.0, -3.0, 4.0), s["key"], 3.0)
    area("KilnFill", (3.5, -2.5, 2.0), s["fill"], 4.0)
    area("KilnRim", (0.0, 4.0, 3.0), s["fill"] * 0.8, 2.0)

    cam = bpy.data.cameras.new("KilnCamera")
    cam.lens = 50.0
    cam_obj = bpy.data.objects.new("KilnCamera", cam)
    scene.collection.objects.link(cam_obj)
    scene.camera = cam_obj

    bpy.ops.wm.save_as_mainfile(filepath=out, compress=False)


try:
    main()
except SystemExit:
    raise
except Exception as e:  # noqa: BLE001 - report any failure as a clear message
    fail("%s: %s" % (type(e).__name__, e))
