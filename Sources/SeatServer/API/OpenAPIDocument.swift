/// The OpenAPI 3.1 description served at `/openapi.json` (kept beside docs/API.md).
enum OpenAPIDocument {
    static let json = #"""
        {
         "openapi": "3.1.0",
         "info": {
          "title": "SeatKit seat inventory",
          "version": "1.0.0",
          "description": "Atomic seat holds with expiry, confirmation and live events. See docs/API.md."
         },
         "components": {
          "securitySchemes": {
           "adminKey": {
            "type": "apiKey",
            "in": "header",
            "name": "X-Admin-Key"
           }
          },
          "schemas": {
           "Problem": {
            "type": "object",
            "required": [
             "type",
             "title",
             "status",
             "detail"
            ],
            "properties": {
             "type": {
              "type": "string"
             },
             "title": {
              "type": "string"
             },
             "status": {
              "type": "integer"
             },
             "detail": {
              "type": "string"
             },
             "conflicts": {
              "type": "array",
              "items": {
               "type": "object",
               "properties": {
                "seat": {
                 "type": "string"
                },
                "status": {
                 "type": "string"
                }
               }
              }
             },
             "violations": {
              "type": "array",
              "items": {
               "type": "object",
               "properties": {
                "rule": {
                 "type": "string"
                },
                "seats": {
                 "type": "array",
                 "items": {
                  "type": "string"
                 }
                },
                "message": {
                 "type": "object",
                 "properties": {
                  "zh": {
                   "type": "string"
                  },
                  "en": {
                   "type": "string"
                  }
                 }
                }
               }
              }
             },
             "errors": {
              "type": "array",
              "items": {
               "type": "object",
               "properties": {
                "path": {
                 "type": "string"
                },
                "message": {
                 "type": "string"
                }
               }
              }
             }
            }
           },
           "Hold": {
            "type": "object",
            "required": [
             "token",
             "holdId",
             "showId",
             "state",
             "seats",
             "total",
             "currency",
             "expiresAt",
             "extended",
             "version"
            ],
            "properties": {
             "token": {
              "type": "string",
              "pattern": "^[0-9a-f]{44}$"
             },
             "holdId": {
              "type": "string"
             },
             "showId": {
              "type": "string"
             },
             "state": {
              "enum": [
               "active",
               "released",
               "expired",
               "confirmed"
              ]
             },
             "seats": {
              "type": "array",
              "items": {
               "type": "string"
              }
             },
             "total": {
              "type": "string",
              "pattern": "^-?[0-9]+(\\.[0-9]+)?$"
             },
             "currency": {
              "type": "string"
             },
             "expiresAt": {
              "type": "string",
              "format": "date-time"
             },
             "extended": {
              "type": "boolean"
             },
             "version": {
              "type": "integer"
             },
             "orderRef": {
              "type": "string"
             }
            }
           },
           "HoldRequest": {
            "type": "object",
            "required": [
             "seats"
            ],
            "additionalProperties": false,
            "properties": {
             "seats": {
              "type": "array",
              "minItems": 1,
              "maxItems": 1000,
              "items": {
               "$ref": "#/components/schemas/SeatId"
              }
             },
             "wheelchair": {
              "type": "boolean"
             }
            },
            "example": {
             "seats": [
              "7-1",
              "7-2"
             ]
            }
           },
           "ModifyRequest": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
             "add": {
              "type": "array",
              "maxItems": 1000,
              "items": {
               "$ref": "#/components/schemas/SeatId"
              }
             },
             "remove": {
              "type": "array",
              "maxItems": 1000,
              "items": {
               "$ref": "#/components/schemas/SeatId"
              }
             }
            },
            "anyOf": [
             {
              "required": [
               "add"
              ],
              "properties": {
               "add": {
                "minItems": 1
               }
              }
             },
             {
              "required": [
               "remove"
              ],
              "properties": {
               "remove": {
                "minItems": 1
               }
              }
             }
            ],
            "description": "at least one seat to add or remove",
            "example": {
             "add": [
              "7-3"
             ],
             "remove": [
              "7-2"
             ]
            }
           },
           "ConfirmRequest": {
            "type": "object",
            "required": [
             "orderRef"
            ],
            "additionalProperties": false,
            "properties": {
             "orderRef": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128,
              "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
             }
            },
            "example": {
             "orderRef": "A-1001"
            }
           },
           "Show": {
            "type": "object",
            "properties": {
             "id": {
              "type": "string"
             },
             "venueId": {
              "type": "string"
             },
             "startsAt": {
              "type": "string",
              "format": "date-time"
             },
             "onSale": {
              "type": "boolean",
              "description": "false once the show has started: sales are closed"
             },
             "holdSeconds": {
              "type": "integer"
             },
             "policy": {
              "type": "object"
             },
             "prices": {
              "type": "object"
             },
             "version": {
              "type": "integer"
             },
             "seats": {
              "type": "object"
             }
            }
           },
           "ShowRequest": {
            "type": "object",
            "required": [
             "id",
             "venueId",
             "startsAt",
             "prices"
            ],
            "additionalProperties": false,
            "properties": {
             "id": {
              "type": "string",
              "pattern": "^[A-Za-z0-9._-]{1,64}$"
             },
             "venueId": {
              "type": "string",
              "pattern": "^[A-Za-z0-9._-]{1,64}$"
             },
             "startsAt": {
              "type": "string",
              "format": "date-time",
              "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
             },
             "holdSeconds": {
              "type": "integer",
              "minimum": 30,
              "maximum": 3600
             },
             "prices": {
              "$ref": "#/components/schemas/PriceTable"
             },
             "policy": {
              "type": "object"
             }
            }
           },
           "SeatId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
            "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            "description": "a seat id of the show's venue"
           },
           "PriceTable": {
            "type": "object",
            "required": [
             "categories"
            ],
            "additionalProperties": false,
            "properties": {
             "currency": {
              "type": "string",
              "pattern": "^[A-Z]{3}$"
             },
             "minorUnits": {
              "type": "integer",
              "minimum": 0,
              "maximum": 4
             },
             "categories": {
              "type": "object",
              "minProperties": 1,
              "additionalProperties": {
               "type": "string",
               "pattern": "^[0-9]+(\\.[0-9]+)?$"
              },
              "description": "a price for every category the venue has"
             },
             "adjustments": {
              "type": "array"
             }
            },
            "description": "see docs/formats/prices-and-policy.md"
           }
          },
          "responses": {
           "Problem": {
            "description": "An error",
            "content": {
             "application/problem+json": {
              "schema": {
               "$ref": "#/components/schemas/Problem"
              }
             }
            }
           }
          },
          "parameters": {
           "token": {
            "name": "token",
            "in": "path",
            "required": true,
            "schema": {
             "type": "string",
             "pattern": "^[0-9a-f]{44}$"
            }
           },
           "showId": {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
             "type": "string",
             "pattern": "^[A-Za-z0-9._-]{1,64}$"
            },
            "example": "hall3-1930"
           },
           "idempotencyKey": {
            "name": "Idempotency-Key",
            "in": "header",
            "required": false,
            "schema": {
             "type": "string",
             "pattern": "^[A-Za-z0-9_.~+/=-]{32,200}$"
            },
            "description": "32 to 200 characters carrying at least 128 random bits (a UUID will do): a secret of the client's"
           },
           "venueId": {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
             "type": "string",
             "pattern": "^[A-Za-z0-9._-]{1,64}$"
            },
            "example": "cinema-hall-3"
           }
          }
         },
         "paths": {
          "/healthz": {
           "get": {
            "summary": "Liveness",
            "responses": {
             "200": {
              "description": "ok",
              "content": {
               "text/plain": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "health"
           },
           "head": {
            "summary": "Liveness",
            "responses": {
             "200": {
              "description": "ok",
              "content": {
               "text/plain": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "healthHead"
           }
          },
          "/metrics": {
           "get": {
            "summary": "Prometheus metrics",
            "responses": {
             "200": {
              "description": "metrics",
              "content": {
               "text/plain": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "metrics"
           }
          },
          "/v1/venues": {
           "get": {
            "summary": "List venues",
            "responses": {
             "200": {
              "description": "venues",
              "content": {
               "application/json": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "listVenues"
           },
           "post": {
            "summary": "Create a venue (admin)",
            "security": [
             {
              "adminKey": []
             }
            ],
            "parameters": [
             {
              "name": "format",
              "in": "query",
              "schema": {
               "enum": [
                "seatkit",
                "seed",
                "cinema-grid",
                "pretix"
               ]
              }
             },
             {
              "name": "id",
              "in": "query",
              "schema": {
               "type": "string",
               "pattern": "^[A-Za-z0-9._-]{1,64}$"
              },
              "description": "the venue's id when the format carries none"
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "type": "object"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "created"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "createVenue"
           }
          },
          "/v1/venues/{id}": {
           "get": {
            "summary": "Venue layout (SeatKit layout JSON, immutable, strong ETag)",
            "parameters": [
             {
              "$ref": "#/components/parameters/venueId"
             }
            ],
            "responses": {
             "200": {
              "description": "layout",
              "content": {
               "application/json": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getVenue"
           }
          },
          "/v1/venues/{id}/heatmap": {
           "get": {
            "summary": "Per-seat share of past shows in which the seat sold",
            "parameters": [
             {
              "$ref": "#/components/parameters/venueId"
             },
             {
              "name": "days",
              "in": "query",
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 3650
              }
             }
            ],
            "responses": {
             "200": {
              "description": "{seatId: share}",
              "content": {
               "application/json": {}
              }
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getHeatmap"
           }
          },
          "/v1/shows": {
           "get": {
            "summary": "List shows",
            "responses": {
             "200": {
              "description": "shows",
              "content": {
               "application/json": {
                "schema": {
                 "type": "array",
                 "items": {
                  "$ref": "#/components/schemas/Show"
                 }
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "listShows"
           },
           "post": {
            "summary": "Create a show (admin)",
            "security": [
             {
              "adminKey": []
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ShowRequest"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "created",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Show"
                }
               }
              },
              "links": {
               "GetShow": {
                "operationId": "getShow",
                "parameters": {
                 "id": "$response.body#/id"
                }
               },
               "HoldOnShow": {
                "operationId": "createHold",
                "parameters": {
                 "id": "$response.body#/id"
                }
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "createShow"
           }
          },
          "/v1/shows/{id}": {
           "get": {
            "summary": "A show",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             }
            ],
            "responses": {
             "200": {
              "description": "show",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Show"
                }
               }
              }
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getShow"
           }
          },
          "/v1/shows/{id}/availability": {
           "get": {
            "summary": "Availability in the compact encoding (ska1), or the delta since a version (skd1)",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             },
             {
              "name": "since",
              "in": "query",
              "schema": {
               "type": "integer",
               "minimum": 0,
               "maximum": 9007199254740991
              }
             },
             {
              "name": "If-None-Match",
              "in": "header",
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "encoding",
              "content": {
               "text/plain": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "429": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getAvailability"
           }
          },
          "/v1/shows/{id}/events": {
           "get": {
            "summary": "Server-Sent Events, one per committed version",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             },
             {
              "name": "Last-Event-ID",
              "in": "header",
              "schema": {
               "type": "string",
               "pattern": "^[0-9]{1,19}$"
              }
             },
             {
              "name": "lastEventId",
              "in": "query",
              "schema": {
               "type": "integer",
               "minimum": 0,
               "maximum": 9007199254740991
              }
             }
            ],
            "responses": {
             "200": {
              "description": "event stream",
              "content": {
               "text/event-stream": {}
              }
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "showEvents"
           }
          },
          "/v1/shows/{id}/seatmap.svg": {
           "get": {
            "summary": "The seat map as SVG (SeatCanvas): every seat a group with its id, index, status, accessible name and label parts; the root carries zoom limits, row positions, zones with prices and status words",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             },
             {
              "name": "lang",
              "in": "query",
              "schema": {
               "enum": [
                "zh",
                "en"
               ]
              }
             },
             {
              "name": "If-None-Match",
              "in": "header",
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "SVG",
              "content": {
               "image/svg+xml": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getSeatMap"
           }
          },
          "/v1/shows/{id}/best": {
           "get": {
            "summary": "The best N free seats side by side under the show's rules (nothing is held)",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             },
             {
              "name": "count",
              "in": "query",
              "required": true,
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 1000
              },
              "description": "at most the show's own limit (policy.maxSeats): more is 422"
             },
             {
              "name": "zone",
              "in": "query",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "wheelchair",
              "in": "query",
              "schema": {
               "type": "boolean"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "{version, seats, total}",
              "content": {
               "application/json": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getBestSeats"
           }
          },
          "/v1/shows/{id}/free-seats": {
           "get": {
            "summary": "List mode: zone, row, runs of free seats side by side, with spoken summaries",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             },
             {
              "name": "lang",
              "in": "query",
              "schema": {
               "enum": [
                "zh",
                "en"
               ]
              }
             }
            ],
            "responses": {
             "200": {
              "description": "{version, zones:[{id,name,rows:[{row,summary,runs:[{text,seats}]}]}]}",
              "content": {
               "application/json": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getFreeSeats"
           }
          },
          "/v1/shows/{id}/holds": {
           "post": {
            "summary": "Hold seats (all or none)",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             },
             {
              "$ref": "#/components/parameters/idempotencyKey"
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/HoldRequest"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "held",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Hold"
                }
               }
              },
              "links": {
               "GetHold": {
                "operationId": "getHold",
                "parameters": {
                 "token": "$response.body#/token"
                }
               },
               "ModifyHold": {
                "operationId": "modifyHold",
                "parameters": {
                 "token": "$response.body#/token"
                }
               },
               "ExtendHold": {
                "operationId": "extendHold",
                "parameters": {
                 "token": "$response.body#/token"
                }
               },
               "ConfirmHold": {
                "operationId": "confirmHold",
                "parameters": {
                 "token": "$response.body#/token"
                }
               },
               "ReleaseHold": {
                "operationId": "releaseHold",
                "parameters": {
                 "token": "$response.body#/token"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "429": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "createHold"
           }
          },
          "/v1/holds/{token}": {
           "get": {
            "summary": "A live hold",
            "parameters": [
             {
              "$ref": "#/components/parameters/token"
             }
            ],
            "responses": {
             "200": {
              "description": "hold",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Hold"
                }
               }
              }
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "getHold"
           },
           "delete": {
            "summary": "Release",
            "parameters": [
             {
              "$ref": "#/components/parameters/token"
             }
            ],
            "responses": {
             "204": {
              "description": "released"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "releaseHold"
           }
          },
          "/v1/holds/{token}/seats": {
           "post": {
            "summary": "Add and remove seats atomically",
            "parameters": [
             {
              "$ref": "#/components/parameters/token"
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ModifyRequest"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "hold",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Hold"
                }
               }
              }
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "modifyHold"
           }
          },
          "/v1/holds/{token}/extend": {
           "post": {
            "summary": "Extend once",
            "parameters": [
             {
              "$ref": "#/components/parameters/token"
             }
            ],
            "responses": {
             "200": {
              "description": "hold",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Hold"
                }
               }
              }
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "extendHold"
           }
          },
          "/v1/holds/{token}/confirm": {
           "post": {
            "summary": "Confirm: the seats are sold",
            "parameters": [
             {
              "$ref": "#/components/parameters/token"
             },
             {
              "$ref": "#/components/parameters/idempotencyKey"
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ConfirmRequest"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "confirmed",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Hold"
                }
               }
              }
             },
             "409": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "confirmHold"
           }
          },
          "/": {
           "get": {
            "summary": "The web seat picker (the show list)",
            "responses": {
             "200": {
              "description": "the web seat picker's page",
              "content": {
               "text/html": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "description": "the page's files were not found (set SEATKIT_WEB_ROOT)",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            },
            "operationId": "pickerPage"
           },
           "head": {
            "summary": "The web seat picker (the show list)",
            "responses": {
             "200": {
              "description": "the web seat picker's page",
              "content": {
               "text/html": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "description": "the page's files were not found (set SEATKIT_WEB_ROOT)",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            },
            "operationId": "pickerPageHead"
           }
          },
          "/shows/{id}": {
           "get": {
            "summary": "The web seat picker for a show (the page routes itself)",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             }
            ],
            "responses": {
             "200": {
              "description": "the web seat picker's page",
              "content": {
               "text/html": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "description": "the page's files were not found (set SEATKIT_WEB_ROOT)",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            },
            "operationId": "pickerShowPage"
           },
           "head": {
            "summary": "The web seat picker for a show (the page routes itself)",
            "parameters": [
             {
              "$ref": "#/components/parameters/showId"
             }
            ],
            "responses": {
             "200": {
              "description": "the web seat picker's page",
              "content": {
               "text/html": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "description": "the page's files were not found (set SEATKIT_WEB_ROOT)",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            },
            "operationId": "pickerShowPageHead"
           }
          },
          "/web/{file}": {
           "get": {
            "summary": "The page's files",
            "parameters": [
             {
              "name": "file",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "pattern": "^[A-Za-z0-9._-]{1,64}$"
              },
              "example": "app.css"
             }
            ],
            "responses": {
             "200": {
              "description": "a file of the page (strong ETag)",
              "content": {
               "*/*": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "pageFile"
           },
           "head": {
            "summary": "The page's files",
            "parameters": [
             {
              "name": "file",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "pattern": "^[A-Za-z0-9._-]{1,64}$"
              },
              "example": "app.css"
             }
            ],
            "responses": {
             "200": {
              "description": "a file of the page (strong ETag)",
              "content": {
               "*/*": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "pageFileHead"
           }
          },
          "/web/js/{file}": {
           "get": {
            "summary": "The page's scripts",
            "parameters": [
             {
              "name": "file",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "pattern": "^[A-Za-z0-9._-]{1,64}$"
              },
              "example": "app.js"
             }
            ],
            "responses": {
             "200": {
              "description": "a file of the page (strong ETag)",
              "content": {
               "*/*": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "pageScript"
           },
           "head": {
            "summary": "The page's scripts",
            "parameters": [
             {
              "name": "file",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "pattern": "^[A-Za-z0-9._-]{1,64}$"
              },
              "example": "app.js"
             }
            ],
            "responses": {
             "200": {
              "description": "a file of the page (strong ETag)",
              "content": {
               "*/*": {}
              }
             },
             "304": {
              "description": "not modified"
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "pageScriptHead"
           }
          },
          "/openapi.json": {
           "get": {
            "summary": "This document",
            "responses": {
             "200": {
              "description": "OpenAPI 3.1",
              "content": {
               "application/json": {}
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "414": {
              "$ref": "#/components/responses/Problem"
             }
            },
            "operationId": "openapi"
           }
          }
         }
        }
        """#
}
