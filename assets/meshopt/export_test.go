package meshopt

// ForsythOrder is forsythOrder, for the external tests that compare it on
// real models read by package scene (which imports this one).
var ForsythOrder = forsythOrder
