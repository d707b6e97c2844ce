package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

func jsonBody(query string, vars map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"query": query, "variables": vars})
}

var quietClient = &http.Client{Timeout: 10 * time.Second}

// httpPost returns the body of a POST, or "" when the request failed.
func httpPost(url, token string, body []byte) string {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := quietClient.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return ""
	}
	return string(b)
}
