package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/kilnhq/kiln"
)

func TestModelVariantTask(t *testing.T) {
	tests := []struct {
		name   string
		p      ModelVariant
		taskID string
	}{
		{"object", ModelVariant{ObjectID: "obj_1", Variant: kiln.Variant{LOD: 1, TextureFormat: "webp"}},
			"model:variant:obj_1:lod1-webp-atlas0-merge0"},
		{"avatar", ModelVariant{AvatarID: "av_1", Variant: kiln.Variant{TextureFormat: "png", Merge: true, AtlasSize: 512}},
			"model:variant:avatar:av_1:lod0-png-atlas512-merge1"},
		{"avatar with clips", ModelVariant{AvatarID: "av_1", Variant: kiln.Variant{TextureFormat: "webp", Animations: []string{"idle"}}},
			"model:variant:avatar:av_1:lod0-webp-atlas0-merge0-" + kiln.AnimationsKey([]string{"idle"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.TaskID(); got != tt.taskID {
				t.Errorf("task id %q, want %q", got, tt.taskID)
			}
			task, err := tt.p.Task()
			if err != nil {
				t.Fatal(err)
			}
			if task.Type() != TypeModelVariant {
				t.Errorf("type %q", task.Type())
			}
			var back ModelVariant
			if err := json.Unmarshal(task.Payload(), &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.p) {
				t.Errorf("payload round trip: %+v, want %+v", back, tt.p)
			}
		})
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		permanent bool
	}{
		{"success", nil, false},
		{"invalid input", kiln.Errorf(kiln.KindInvalid, "invalid_lod", "bad"), true},
		{"a model that cannot be processed", kiln.E("worker.x", kiln.Errorf(kiln.KindUnprocessable, "invalid_model", "corrupt")), true},
		{"a record that is gone", kiln.E("redis.Object", kiln.KindNotFound, errors.New("nil")), true},
		{"too large", kiln.Errorf(kiln.KindTooLarge, "file_too_large", "big"), true},
		{"store down", kiln.E("minio.Get", kiln.KindUnavailable, errors.New("dial tcp")), false},
		{"a crash or deadline", context.DeadlineExceeded, false},
		{"waiting its turn", ErrBusy, false},
		{"already permanent", Permanent(errors.New("bad payload")), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Outcome(tt.err)
			if IsPermanent(got) != tt.permanent {
				t.Errorf("Outcome(%v) permanent %v, want %v", tt.err, IsPermanent(got), tt.permanent)
			}
			if tt.err != nil && !errors.Is(got, tt.err) {
				t.Errorf("Outcome lost the cause: %v", got)
			}
			if tt.err == nil && got != nil {
				t.Errorf("Outcome(nil) = %v", got)
			}
		})
	}
}
