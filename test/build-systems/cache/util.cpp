int util() { return 3; }
