"""Hardware inputs: the camera and QR scanner, the dice (GPIO button, serial
dice tower, manual entry).  Every input has a real and a simulated
implementation chosen by configuration; hardware threads only enqueue."""
