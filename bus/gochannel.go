package bus

import (
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// GoChannelBuffer is the per-subscriber buffer of the pubsub NewGoChannel returns.
const GoChannelBuffer = 1024

// NewGoChannel returns the default, in-process bus: a Watermill GoChannel that is both
// the relay's Publisher and the followers' Subscriber. It keeps nothing (a follower that
// subscribes late reads the past from the store, not from the bus) and it does not make
// Publish wait for subscribers' acks, so a slow or stuck reader never holds up the relay
// and the other readers. The price is that GoChannel may deliver messages out of order;
// followers put them back in order. logger may be nil (Watermill then logs nothing).
func NewGoChannel(logger *slog.Logger) *gochannel.GoChannel {
	var wlog watermill.LoggerAdapter = watermill.NopLogger{}
	if logger != nil {
		wlog = watermill.NewSlogLogger(logger)
	}
	return gochannel.NewGoChannel(gochannel.Config{
		OutputChannelBuffer:            GoChannelBuffer,
		Persistent:                     false,
		BlockPublishUntilSubscriberAck: false,
	}, wlog)
}
