package scene

import "testing"

func BenchmarkRead(b *testing.B) {
	for _, name := range []string{"DamagedHelmet.glb", "rpm-avatar-office.glb", "RobotExpressive.glb"} {
		b.Run(name, func(b *testing.B) {
			data := sharedModel(b, name)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(data, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, name := range []string{"DamagedHelmet.glb", "rpm-avatar-office.glb", "RobotExpressive.glb"} {
		b.Run(name, func(b *testing.B) {
			s := mustRead(b, sharedModel(b, name))
			for b.Loop() {
				if _, err := Write(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWeld(b *testing.B) {
	s := mustRead(b, sharedModel(b, "DamagedHelmet.glb"))
	p := s.Meshes[0].Primitives[0]
	unweld(p)
	for b.Loop() {
		q := *p
		q.Indices = nil
		if err := q.Weld(); err != nil {
			b.Fatal(err)
		}
	}
}
