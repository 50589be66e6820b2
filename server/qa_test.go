package server

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// TestDecodeNumberMessages: a max_rows the decoder cannot take as an int
// (1e3, 1.5, 2^70) was answered with the self-contradicting "must be a
// number, not a JSON number 1e3".
func TestDecodeNumberMessages(t *testing.T) {
	gin.SetMode(gin.TestMode)
	tests := []struct {
		name string
		body string
	}{
		{"exponent", `{"question":"q","max_rows":1e3}`},
		{"fraction", `{"question":"q","max_rows":1.5}`},
		{"overflow", `{"question":"q","max_rows":99999999999999999999}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := gin.CreateTestContext(httptest.NewRecorder())
			c.Request = httptest.NewRequest(http.MethodPost, "/api/query", strings.NewReader(tt.body))
			var req struct {
				Question string `json:"question"`
				MaxRows  *int   `json:"max_rows"`
			}
			err := decodeJSON(c, &req, true)
			var ae *apiError
			if !errors.As(err, &ae) {
				t.Fatalf("decodeJSON(%s) = %v, want an *apiError", tt.body, err)
			}
			if !strings.Contains(ae.Message, "whole number") || ae.Field != "max_rows" {
				t.Errorf("message %q field %q, want it to ask for a whole number in max_rows", ae.Message, ae.Field)
			}
		})
	}
}

// TestChatEmptyUserContent: an empty last user message was reported as
// `field "messages" is required and must not be empty` although messages was
// there; the message must name the content at fault.
func TestChatEmptyUserContent(t *testing.T) {
	tests := []struct {
		name string
		msgs []chatMessage
		want string
	}{
		{"empty string", []chatMessage{{Role: "user", Content: []byte(`""`)}}, `messages[0].content`},
		{"null", []chatMessage{{Role: "system", Content: []byte(`"be brief"`)}, {Role: "user", Content: []byte(`null`)}}, `messages[1].content`},
		{"image only", []chatMessage{{Role: "user", Content: []byte(`[{"type":"image_url","image_url":{"url":"x"}}]`)}}, `messages[0].content`},
		{"blank", []chatMessage{{Role: "user", Content: []byte(`"  \n "`)}}, `messages[0].content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := lastUserMessage(tt.msgs)
			var ae *apiError
			if !errors.As(err, &ae) {
				t.Fatalf("lastUserMessage = %v, want an *apiError", err)
			}
			if !strings.Contains(ae.Message, tt.want) || !strings.Contains(ae.Message, "no text") {
				t.Errorf("message %q, want it to name %s and say it holds no text", ae.Message, tt.want)
			}
		})
	}
}
