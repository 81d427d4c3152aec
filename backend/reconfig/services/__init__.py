"""Domain logic of ShareBackup and Larry in the server: validation of every input (listing every
problem), the engine calls, and the shaping of their answers. Views and job handlers stay thin."""
