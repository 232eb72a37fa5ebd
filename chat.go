package kiln

// ChatTurn is one message of a conversation with the assistant: the
// user's prompt or the assistant's answer.
type ChatTurn struct {
	Role    string `json:"role"` // "user" or "assistant"
	Content string `json:"content"`
}
