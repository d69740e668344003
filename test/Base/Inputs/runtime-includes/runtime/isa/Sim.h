// an internal header of the fixture runtime
