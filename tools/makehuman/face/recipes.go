package main

// term is one pose unit at a weight; side fades it to the face's left
// (+1) or right (-1) half, for shapes that MakeHuman only has for both
// sides at once.
type term struct {
	unit string
	w    float64
	side int
}

type recipe struct {
	name  string
	terms []term
}

func t(unit string, w float64) term     { return term{unit: unit, w: w} }
func left(unit string, w float64) term  { return term{unit: unit, w: w, side: 1} }
func right(unit string, w float64) term { return term{unit: unit, w: w, side: -1} }

// recipes blend the pose units (names from face-poseunits.json) into
// every shape package face serves. "Left" is the face's own left (+x),
// as in ARKit and MakeHuman's ".L" bones. The weights were chosen by
// looking at the results: a blink closes the lid, visemes open the jaw
// about as far as the sound does in speech.
var recipes = []recipe{
	// ARKit, Apple's 52, left eye.
	{"eyeBlinkLeft", []term{t("LeftUpperLidClosed", 1), t("LeftLowerLidUp", 0.2)}},
	{"eyeLookDownLeft", []term{t("LeftEyeDown", 1)}},
	{"eyeLookInLeft", []term{t("LeftEyeturnRight", 1)}}, // toward the nose
	{"eyeLookOutLeft", []term{t("LeftEyeturnLeft", 1)}},
	{"eyeLookUpLeft", []term{t("LeftEyeUp", 1)}},
	{"eyeSquintLeft", []term{t("LeftLowerLidUp", 0.8), t("LeftCheekUp", 0.3)}},
	{"eyeWideLeft", []term{t("LeftUpperLidOpen", 1)}},
	{"eyeBlinkRight", []term{t("RightUpperLidClosed", 1), t("RightLowerLidUp", 0.2)}},
	{"eyeLookDownRight", []term{t("RightEyeDown", 1)}},
	{"eyeLookInRight", []term{t("RightEyeturnLeft", 1)}},
	{"eyeLookOutRight", []term{t("RightEyeturnRight", 1)}},
	{"eyeLookUpRight", []term{t("RightEyeUp", 1)}},
	{"eyeSquintRight", []term{t("RightLowerLidUp", 0.8), t("RightCheekUp", 0.3)}},
	{"eyeWideRight", []term{t("RightUpperLidOpen", 1)}},
	{"jawForward", []term{t("ChinForward", 1)}},
	{"jawLeft", []term{t("ChinLeft", 1)}},
	{"jawRight", []term{t("ChinRight", 1)}},
	{"jawOpen", []term{t("JawDrop", 1)}},
	// mouthClose presses the lips together (against an open jaw).
	{"mouthClose", []term{t("lowerLipUp", 1), t("UpperLipUp", -0.6)}},
	{"mouthFunnel", []term{t("LipsKiss", 0.5), t("UpperLipForward", 0.6), t("lowerLipForward", 0.6), t("JawDrop", 0.15)}},
	{"mouthPucker", []term{t("LipsKiss", 1), t("UpperLipForward", 0.3), t("lowerLipForward", 0.3)}},
	{"mouthLeft", []term{t("MouthMoveLeft", 1)}},
	{"mouthRight", []term{t("MouthMoveRight", 1)}},
	{"mouthSmileLeft", []term{t("MouthLeftPullUp", 1)}},
	{"mouthSmileRight", []term{t("MouthRightPullUp", 1)}},
	{"mouthFrownLeft", []term{t("MouthLeftPullDown", 1), t("MouthLeftPlatysma", 0.3)}},
	{"mouthFrownRight", []term{t("MouthRightPullDown", 1), t("MouthRightPlatysma", 0.3)}},
	{"mouthDimpleLeft", []term{t("MouthLeftPullSide", 0.6)}},
	{"mouthDimpleRight", []term{t("MouthRightPullSide", 0.6)}},
	{"mouthStretchLeft", []term{t("MouthLeftPlatysma", 0.7), t("MouthLeftPullSide", 0.4)}},
	{"mouthStretchRight", []term{t("MouthRightPlatysma", 0.7), t("MouthRightPullSide", 0.4)}},
	{"mouthRollLower", []term{t("lowerLipBackward", 1)}},
	{"mouthRollUpper", []term{t("UpperLipBackward", 1)}},
	{"mouthShrugLower", []term{t("lowerLipForward", 0.5), t("lowerLipUp", 0.5)}},
	{"mouthShrugUpper", []term{t("UpperLipForward", 0.4), t("UpperLipUp", 0.3)}},
	{"mouthPressLeft", []term{left("lowerLipUp", 0.5), left("UpperLipUp", -0.4), t("MouthLeftPullSide", 0.2)}},
	{"mouthPressRight", []term{right("lowerLipUp", 0.5), right("UpperLipUp", -0.4), t("MouthRightPullSide", 0.2)}},
	{"mouthLowerDownLeft", []term{left("lowerLipDown", 0.8)}},
	{"mouthLowerDownRight", []term{right("lowerLipDown", 0.8)}},
	{"mouthUpperUpLeft", []term{left("UpperLipUp", 1)}},
	{"mouthUpperUpRight", []term{right("UpperLipUp", 1)}},
	{"browDownLeft", []term{t("LeftBrowDown", 1)}},
	{"browDownRight", []term{t("RightBrowDown", 1)}},
	{"browInnerUp", []term{t("LeftInnerBrowUp", 1), t("RightInnerBrowUp", 1)}},
	{"browOuterUpLeft", []term{t("LeftOuterBrowUp", 1)}},
	{"browOuterUpRight", []term{t("RightOuterBrowUp", 1)}},
	{"cheekPuff", []term{t("CheeksPump", 1)}},
	{"cheekSquintLeft", []term{t("LeftCheekUp", 1)}},
	{"cheekSquintRight", []term{t("RightCheekUp", 1)}},
	{"noseSneerLeft", []term{left("NoseWrinkler", 1), left("UpperLipUp", 0.3)}},
	{"noseSneerRight", []term{right("NoseWrinkler", 1), right("UpperLipUp", 0.3)}},
	// The tongue comes out between parted lips, as in Apple's reference
	// face, not through closed ones.
	{"tongueOut", []term{t("TongueOut", 1), t("JawDrop", 0.3)}},

	// Oculus visemes: the mouth of each sound group; sil is the rest face.
	{"viseme_sil", nil},
	{"viseme_PP", []term{t("lowerLipUp", 0.6), t("UpperLipUp", -0.4), t("LipsKiss", 0.2)}},
	{"viseme_FF", []term{t("lowerLipBackward", 0.6), t("lowerLipUp", 0.4), t("UpperLipUp", 0.2), t("JawDrop", 0.1)}},
	{"viseme_TH", []term{t("JawDrop", 0.2), t("TongueOut", 0.35)}},
	{"viseme_DD", []term{t("JawDrop", 0.25), t("TongueUp", 0.4), t("MouthLeftPullSide", 0.2), t("MouthRightPullSide", 0.2)}},
	{"viseme_kk", []term{t("JawDrop", 0.3), t("TongueUp", 0.2), t("MouthLeftPullSide", 0.2), t("MouthRightPullSide", 0.2)}},
	{"viseme_CH", []term{t("JawDrop", 0.15), t("LipsKiss", 0.4), t("UpperLipForward", 0.5), t("lowerLipForward", 0.5)}},
	{"viseme_SS", []term{t("JawDrop", 0.1), t("MouthLeftPullSide", 0.4), t("MouthRightPullSide", 0.4)}},
	{"viseme_nn", []term{t("JawDrop", 0.2), t("TongueUp", 0.5)}},
	{"viseme_RR", []term{t("JawDrop", 0.2), t("LipsKiss", 0.5)}},
	{"viseme_aa", []term{t("JawDrop", 0.8)}},
	{"viseme_E", []term{t("JawDrop", 0.4), t("MouthLeftPullSide", 0.4), t("MouthRightPullSide", 0.4)}},
	{"viseme_I", []term{t("JawDrop", 0.25), t("MouthLeftPullSide", 0.6), t("MouthRightPullSide", 0.6)}},
	{"viseme_O", []term{t("JawDrop", 0.5), t("LipsKiss", 0.7)}},
	{"viseme_U", []term{t("JawDrop", 0.15), t("LipsKiss", 1), t("UpperLipForward", 0.3), t("lowerLipForward", 0.3)}},

	// Kiln's defaults, as before the face rig.
	{"mouthOpen", []term{t("JawDrop", 1)}},
	{"mouthSmile", []term{t("MouthLeftPullUp", 0.7), t("MouthRightPullUp", 0.7), t("LeftCheekUp", 0.3), t("RightCheekUp", 0.3)}},
}
