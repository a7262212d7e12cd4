// y[i] = a * x[i] on the device (scale.cu); the static library of the
// examples.
#pragma once

// Scales n floats in device memory; returns a CUDA error code (0: success).
int scale_on_device(float *y, const float *x, float a, int n);
